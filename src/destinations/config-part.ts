import type * as z from "zod";
import type { ConfigShape, DestinationConfigPart, DestinationShape } from "./destination-module.js";

/** A kind's config fragments: the shared settings, a digest's and an alert's destination. */
type ConfigSchema = DestinationShape["schema"];

/** How a kind's config as written (snake_case, defaults filled) resolves, part by part. */
interface Resolvers<S extends ConfigSchema, Global, DigestTarget, AlertTarget> {
  global(input: z.output<S["global"]>): Global;
  digest(input: z.output<S["digest"]>): DigestTarget;
  alert(input: z.output<S["alert"]>): AlertTarget;
}

/**
 * A kind's config part (see DestinationConfigPart), its types read off its fragments and what
 * its resolvers return. Without `shared`, the kind has no environment defaults and no shared
 * credential: each destination carries its own (a Teams workflow's URL, a webhook's).
 */
export function configPart<K extends string, S extends ConfigSchema, G, D, A>(
  kind: K,
  schema: S,
  resolve: Resolvers<S, G, D, A>,
  shared: Pick<DestinationConfigPart<K, ConfigShape>, "envDefaults" | "credential"> = {
    envDefaults: {},
    credential: null,
  },
): DestinationConfigPart<K, { schema: S; global: G; digestTarget: D; alertTarget: A }> {
  return { kind, schema, resolve, ...shared };
}
