// SQLite stores instants as ISO strings in UTC, which sort and compare as text; PostgreSQL as
// timestamptz, which its driver reads as Dates.

/** An instant as a store reads it back. */
export type Instant = string | Date;
