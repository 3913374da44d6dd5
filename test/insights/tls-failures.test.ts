import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkConfigCommand } from "../../src/commands/check-config.js";
import { parseConfigText } from "../../src/config/load-config.js";
import { configText, fullEnv } from "../config/config-builders.js";
import { rejection, testClient } from "./client-builders.js";

// A certificate the client refuses is not a hiccup: waiting never fixes it. Real https servers
// on loopback with certificates made here by openssl: self-signed, signed by a CA the client
// does not know, and issued for another host name.

let dir: string;
const servers: Server[] = [];

function openssl(...args: string[]): void {
  execFileSync("openssl", args, { cwd: dir, stdio: "ignore" });
}

/** A key and certificate for `name`: self-signed, or signed by the test CA. */
function certificate(file: string, name: string, signedBy: "self" | "ca"): void {
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  const subject = ["-subj", `/CN=${name}`];
  if (signedBy === "self") {
    openssl(
      "req",
      "-x509",
      ...ec,
      "-keyout",
      `${file}.key`,
      "-out",
      `${file}.pem`,
      "-days",
      "2",
      ...subject,
      "-addext",
      `subjectAltName=DNS:${name}`,
    );
    return;
  }
  openssl("req", ...ec, "-keyout", `${file}.key`, "-out", `${file}.csr`, ...subject);
  openssl(
    "x509",
    "-req",
    "-in",
    `${file}.csr`,
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    `${file}.pem`,
    "-days",
    "2",
    "-extfile",
    "san.cnf",
  );
}

/** An https server answering every request with an empty project list, as the API would. */
async function serve(file: string): Promise<string> {
  const server = createServer(
    { key: readFileSync(join(dir, `${file}.key`)), cert: readFileSync(join(dir, `${file}.pem`)) },
    (_, response) => {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ data: [], page_number: 1, total_pages: 1 }));
    },
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `https://localhost:${(server.address() as AddressInfo).port}/api/external/v1`;
}

let selfSigned: string;
let unknownCa: string;
let otherName: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "reporter-tls-"));
  openssl(
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-subj",
    "/CN=Test CA",
  );
  certificate("self", "localhost", "self");
  execFileSync("sh", ["-c", "printf 'subjectAltName=DNS:localhost' > san.cnf"], { cwd: dir });
  certificate("local", "localhost", "ca");
  execFileSync("sh", ["-c", "printf 'subjectAltName=DNS:other.test' > san.cnf"], { cwd: dir });
  certificate("other", "other.test", "ca");
  selfSigned = await serve("self");
  unknownCa = await serve("local");
  otherName = await serve("other");
});

afterAll(async () => {
  for (const server of servers) server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("TLS failures of the insights API", () => {
  it("a self-signed certificate: says so, names NODE_EXTRA_CA_CERTS, is not retried", async () => {
    const { client, requests, sleeps } = testClient(selfSigned);
    const error = await rejection(client.listProjects());
    expect(error.message).toMatch(/self-signed TLS certificate/);
    expect(error.message).toContain("NODE_EXTRA_CA_CERTS");
    expect(error.message).not.toMatch(/try again later/);
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    await client.close();
  });

  it("a CA the client does not know: says so and names NODE_EXTRA_CA_CERTS", async () => {
    const { client, requests } = testClient(unknownCa);
    const error = await rejection(client.listProjects());
    expect(error.message).toMatch(/signed by a CA this machine does not know/);
    expect(error.message).toContain("NODE_EXTRA_CA_CERTS");
    expect(error.message).not.toMatch(/try again later/);
    expect(requests).toHaveLength(1);
    await client.close();
  });

  it("a certificate for another host name: names the URL's host to check", async () => {
    // The CA is trusted here, so only the name is wrong.
    const dispatcher = new Agent({ connect: { ca: readFileSync(join(dir, "ca.pem")) } });
    const { client, requests } = testClient(otherName, { dispatcher });
    const error = await rejection(client.listProjects());
    expect(error.message).toMatch(/not issued for that host name/);
    expect(error.message).toContain("INSIGHTS_API_URL");
    expect(error.message).toContain("localhost");
    expect(error.message).not.toMatch(/try again later/);
    expect(requests).toHaveLength(1);
    await dispatcher.close();
  });

  it("check-config --online reports the same fix", async () => {
    const config = parseConfigText(configText(), "reporter.yaml", {
      env: fullEnv({ INSIGHTS_API_URL: selfSigned }),
    });
    const { client } = testClient(selfSigned);
    const lines: string[] = [];
    const code = await checkConfigCommand(
      { config, now: new Date("2026-10-23T12:00:00Z"), width: 1_000, online: { api: client } },
      (line) => lines.push(line),
    );
    expect(code).toBe(1);
    const line = lines.find((l) => l.startsWith("insights API:"));
    expect(line).toMatch(/self-signed TLS certificate.*NODE_EXTRA_CA_CERTS/);
    await client.close();
  });
});
