import type { ConfigIssue } from "../errors.js";
import { cleanSecretText, describeSecretProblem, secretTextProblem } from "../secret-text.js";
import { formatConfigPath } from "./config-path.js";
import { isRecord } from "./loose-access.js";
import { FileTooLargeError, NotAFileError } from "./read-regular-file.js";

export interface EnvSubstitutionOptions {
  env: NodeJS.ProcessEnv;
  readFile: (path: string) => string;
  /** Paths that may be left out: an unset `${NAME}` there drops the key instead of failing. */
  optionalPaths: ReadonlySet<string>;
  /** Paths whose value is sent in an HTTP header, so must be Latin-1 (see secret-text.ts). */
  headerPaths: ReadonlySet<string>;
}

export interface EnvSubstitution {
  value: unknown;
  issues: ConfigIssue[];
  /** Optional fields dropped because their variable is unset: path → variable name. */
  unsetOptional: Map<string, string>;
  /** Values read from `NAME_FILE` files or secret-looking variables, to scrub from messages. */
  secrets: string[];
}

const REFERENCE = /\$\$\{|\$\{([^}]*)(\}|$)/g;
const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SECRET_NAME = /KEY|TOKEN|SECRET|PASS|SMTP|CREDENTIAL|DATABASE_URL/i;
const DROP = Symbol("drop");

type Lookup = { value: string } | { problem: string };
type Found = { value: string; secret: boolean; fromFile: boolean } | { problem: string };

/**
 * Replaces `${NAME}` in every string value with the environment's value. When `NAME` is unset
 * or empty but `NAME_FILE` is set, the file's content is used, as container secrets are
 * mounted. A secret (a file's content, a secret-looking variable, a value sent in a header)
 * loses a leading BOM and surrounding whitespace, and is refused if it still cannot be sent.
 * `$${` writes a literal `${`. Keys are never substituted.
 */
export function substituteEnv(value: unknown, options: EnvSubstitutionOptions): EnvSubstitution {
  const result: EnvSubstitution = { value, issues: [], unsetOptional: new Map(), secrets: [] };
  const lookup = (name: string, where: string): Lookup => {
    const inHeader = options.headerPaths.has(where);
    const found = lookupVariable(name, options, inHeader);
    if ("problem" in found || !found.secret) return found;
    result.secrets.push(found.value);
    const problem = secretTextProblem(found.value, inHeader);
    if (problem === null) return found;
    return {
      problem: `\${${name}}: ${describeSecretProblem(problem, { variable: name, fromFile: found.fromFile })}`,
    };
  };

  const walk = (node: unknown, path: PropertyKey[]): unknown => {
    if (typeof node === "string") return substituteString(node, path);
    if (Array.isArray(node)) return node.map((item, i) => walk(item, [...path, i]));
    if (isRecord(node)) {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node)) {
        const replaced = walk(child, [...path, key]);
        if (replaced !== DROP) out[key] = replaced;
      }
      return out;
    }
    return node;
  };

  const substituteString = (text: string, path: PropertyKey[]): unknown => {
    if (!text.includes("${")) return text;
    const where = formatConfigPath(path);
    const whole = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(text)?.[1];
    const problems: string[] = [];
    const replaced = text.replace(REFERENCE, (match, name: string | undefined, close: string) => {
      if (match === "$${") return "${";
      if (close !== "}") {
        problems.push(`"\${" is not closed — write \${NAME}`);
        return match;
      }
      const trimmed = (name ?? "").trim();
      if (!VALID_NAME.test(trimmed)) {
        problems.push(`\${${name}} is not a variable reference — names are letters, digits and _`);
        return match;
      }
      const found = lookup(trimmed, where);
      if ("problem" in found) {
        problems.push(found.problem);
        return match;
      }
      return found.value;
    });
    if (problems.length === 0) return replaced;
    if (whole !== undefined && options.optionalPaths.has(where) && isUnset(whole, options.env)) {
      result.unsetOptional.set(where, whole);
      return DROP;
    }
    for (const message of problems) result.issues.push({ path: where, message });
    return text;
  };

  result.value = walk(value, []);
  return result;
}

function lookupVariable(name: string, options: EnvSubstitutionOptions, inHeader: boolean): Found {
  const direct = options.env[name];
  if (direct !== undefined && direct !== "") {
    const secret = inHeader || SECRET_NAME.test(name);
    return { value: secret ? cleanSecretText(direct) : direct, secret, fromFile: false };
  }
  const filePath = options.env[`${name}_FILE`];
  if (filePath !== undefined && filePath !== "") {
    let content: string;
    try {
      content = options.readFile(filePath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
      const why =
        error instanceof NotAFileError
          ? `is ${error.what}, not a file`
          : error instanceof FileTooLargeError
            ? `holds over ${error.limit} bytes, far more than a secret`
            : `cannot be read (${code})`;
      return {
        problem: `\${${name}}: ${name}_FILE names ${filePath}, which ${why} — point ${name}_FILE at the file holding the value`,
      };
    }
    const value = cleanSecretText(content);
    if (value === "") {
      return {
        problem: `\${${name}}: ${name}_FILE names ${filePath}, which is empty — put the value in that file`,
      };
    }
    return { value, secret: true, fromFile: true };
  }
  const state = direct === "" ? "is empty" : "is not set";
  return { problem: `\${${name}} ${state} — export ${name} (or ${name}_FILE)` };
}

function isUnset(name: string, env: NodeJS.ProcessEnv): boolean {
  return !env[name] && !env[`${name}_FILE`];
}
