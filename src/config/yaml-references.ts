import {
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type LineCounter,
  type Node,
  visit,
} from "yaml";
import type { ConfigIssue } from "../errors.js";

// YAML that parses but cannot become data: an alias to an anchor set nowhere above it, or
// inside the very value it names (a value containing itself), a merge key (`<<`) whose value
// is not a mapping. The yaml library finds these only while converting, and throws (or, for a
// value containing itself, builds one that the checks after it recurse into without end);
// found here first, each is one issue with its line and its fix.

/** Every alias and merge key in `doc` that cannot be resolved, each with its line. */
export function unresolvableReferences(doc: Document, lines: LineCounter): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  // Anchors in document order, the last one of a name winning: as the yaml library resolves them.
  const anchors = new Map<string, unknown>();
  const lineOf = (node: { range?: unknown }) => {
    const range = node.range as [number, number, number] | null | undefined;
    return range ? lines.linePos(range[0]).line : undefined;
  };
  const at = (line: number | undefined) => (line === undefined ? "" : ` at line ${line}`);
  visit(doc, (_key, node, path) => {
    if (isAlias(node)) {
      if (!anchors.has(node.source)) {
        issues.push({
          path: "",
          message: `YAML alias *${node.source}${at(lineOf(node))} has no anchor &${node.source} before it — set it above (e.g. &${node.source} on the value to share), or write the value out`,
        });
      } else if ((path as readonly unknown[]).includes(anchors.get(node.source))) {
        // A value that contains itself never ends: converting it would recurse until it fails.
        issues.push({
          path: "",
          message: `YAML alias *${node.source}${at(lineOf(node))} is inside the value &${node.source} it names, which would then contain itself — move the alias out of &${node.source}, or write the value out`,
        });
      }
      return;
    }
    const anchor = (node as { anchor?: unknown } | null)?.anchor;
    if (typeof anchor === "string" && anchor) anchors.set(anchor, node);
    if (isPair(node) && isMergeKey(node.key)) {
      const values = isSeq(node.value) ? node.value.items : [node.value];
      const bad = values.some((value) => {
        // An alias to no anchor is reported as such, above.
        const target = isAlias(value) ? anchors.get(value.source) : value;
        return !(isAlias(value) && target === undefined) && !isMap(target);
      });
      if (bad) {
        issues.push({
          path: "",
          message: `YAML merge key <<${at(lineOf(node.key as Node))} must be followed by a mapping or an alias of one (e.g. <<: *defaults), or a list of them — write the keys out instead`,
        });
      }
    }
  });
  return issues;
}

/** `<<` as the yaml library reads it with merge keys on: a plain scalar holding a symbol. */
function isMergeKey(key: unknown): boolean {
  return (
    isScalar(key) &&
    ((typeof key.value === "symbol" && key.value.description === "<<") || key.value === "<<") &&
    (!key.type || key.type === "PLAIN")
  );
}
