// undici's own modules for its Pool and the request API (see undici-pool.ts): the very
// objects its main entry exports and mixes in.

declare module "undici/lib/dispatcher/pool.js" {
  import type { Pool } from "undici";

  const PoolClass: typeof Pool;
  export default PoolClass;
}

declare module "undici/lib/dispatcher/dispatcher.js" {
  import type { Dispatcher } from "undici";

  const DispatcherClass: typeof Dispatcher;
  export default DispatcherClass;
}

declare module "undici/lib/api/index.js" {
  const api: Record<string, unknown>;
  export default api;
}
