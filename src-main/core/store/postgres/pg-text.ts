// PostgreSQL text cannot hold U+0000. A NUL in a text value (an id from a JSON body, an error text) is
// stored as U+FFFD; bodies are bytea and keep every byte. Every text the PostgreSQL engine writes passes here.
export function pgText<T>(value: T): T {
  return (typeof value === 'string' && value.includes('\u0000') ? value.replace(/\u0000/g, '\uFFFD') : value) as T;
}
