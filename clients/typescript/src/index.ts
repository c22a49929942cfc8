// The typed client of the Semantic Memory API: openapi-fetch over the types `make sdk`
// generates from the service's OpenAPI schema (src/schema.d.ts).
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";

/** Return a client that sends `Authorization: Token <token>` to `baseUrl`. */
export function createMemoryClient(baseUrl: string, token: string) {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Token ${token}` } });
}
