import type pg from "pg";

/**
 * `work` on `client` inside one transaction: committed when it resolves, rolled back when it
 * throws (a rollback that fails too, on a connection already lost, is left unsaid).
 */
export async function inTransaction<T>(
  client: pg.PoolClient,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  await client.query("BEGIN");
  try {
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
