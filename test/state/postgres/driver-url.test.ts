import { describe, expect, it } from "vitest";
import { driverUrl } from "../../../src/state/postgres/driver-url.js";

describe("driverUrl", () => {
  it.each([
    ["postgres://u:p@db/x?sslmode=require", "postgres://u:p@db/x?sslmode=verify-full"],
    ["postgres://u:p@db/x?sslmode=prefer", "postgres://u:p@db/x?sslmode=verify-full"],
    [
      "postgres://u:p@db/x?application_name=a&sslmode=verify-ca&sslrootcert=/ca.pem",
      "postgres://u:p@db/x?application_name=a&sslmode=verify-full&sslrootcert=/ca.pem",
    ],
    ["postgres://u:p@db/x?sslmode=verify-full", "postgres://u:p@db/x?sslmode=verify-full"],
    ["postgres://u:p@db/x?sslmode=disable", "postgres://u:p@db/x?sslmode=disable"],
    ["postgres://u:p@db/x?xsslmode=require", "postgres://u:p@db/x?xsslmode=require"],
    ["postgres://u:p@db/x?sslmode=requirex", "postgres://u:p@db/x?sslmode=requirex"],
    [
      "postgres://u:p@db/x?uselibpqcompat=true&sslmode=require",
      "postgres://u:p@db/x?uselibpqcompat=true&sslmode=require",
    ],
    ["postgres://u:p%3Fsslmode=require@db/x", "postgres://u:p%3Fsslmode=require@db/x"],
  ])("hands pg %s as %s", (url, driver) => {
    expect(driverUrl(url)).toBe(driver);
  });
});
