// undici's own module for its Pool (see undici-pool.ts): the very class its main entry exports.

declare module "undici/lib/dispatcher/pool.js" {
  import type { Pool } from "undici";

  const PoolClass: typeof Pool;
  export default PoolClass;
}
