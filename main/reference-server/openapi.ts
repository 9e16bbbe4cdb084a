// The OpenAPI 3.1 document of Platform API v1 as this reference server answers it (Node, main
// process). Every schema in it comes from the zod schemas the server validates requests with
// (schemas.ts) and builds its answers to (responses.ts); openapi/ adds what zod cannot say (the
// operations in words, their paths, errors and headers, the webhooks) and this file assembles the
// document. Served at {base_url}/openapi.json; `npm run openapi` writes it to docs/openapi.json,
// and test/reference-server/openapi.test.ts keeps the two equal.
import { API_PREFIX, DEFAULT_PER_PAGE, MAX_PER_PAGE, PLANS } from '../platform/wire';
import { MAX_BODY_BYTES } from './http';
import { componentsObject } from './openapi/components';
import type { Json } from './openapi/components';
import { TAGS } from './openapi/operations';
import { pathsObject } from './openapi/paths';
import { webhooksObject } from './openapi/webhooks';

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
const EXAMPLE_BASE_URL = `http://127.0.0.1:4010${API_PREFIX}`;

const INFO_DESCRIPTION = `Platform API v1 as Pressroom's reference server answers it. The platform's own specification names the 17 endpoints and leaves most shapes open; where it does, this document gives Pressroom's reading (docs/platform-api.md in the Pressroom repository), which the reference server implements strictly. Each operation's summary is the spec's own words; its description is Pressroom's reading of what the spec leaves open.

- JSON in and out, UTF-8. Request bodies over ${MAX_BODY_BYTES} bytes get 413. Unknown body fields are refused with 422, so a typo cannot change what a request does; unknown query parameters are ignored.
- Ids are opaque strings with a type prefix (\`bot_12\`). Instants are RFC 3339 in UTC with milliseconds; requests may use any offset, but an instant without one is refused. Money is a decimal string in major units plus an ISO 4217 currency.
- Every list takes \`page\` (from 1) and \`per_page\` (1–${MAX_PER_PAGE}, default ${DEFAULT_PER_PAGE}) and answers \`{ data, meta }\`; the list ends where \`meta.next_page\` is null.
- Rate limits are per token, in fixed windows aligned to the epoch (one minute): ${Object.entries(
  PLANS,
)
  .map(([plan, limit]) => `${plan} ${limit}`)
  .join(', ')} requests per window. Every served request counts, errors included; a 429 does not.
- \`POST\`, \`PATCH\` and \`DELETE\` take an \`Idempotency-Key\`; every create also takes a \`client_reference\`, so a client whose write had an unknown outcome can look the item up before sending it again.
- A known path with another method answers 405 \`method_not_allowed\` with an \`Allow\` header; an unknown path, 404.
- This document is served at \`{base_url}/openapi.json\` without a token.`;

/** The document; `baseUrl` names the server it is served from, else a variable stands for it. */
export function openApiDocument(baseUrl?: string): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Platform API v1 (Pressroom reference server)',
      version: '1.0.0',
      description: INFO_DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      baseUrl
        ? { url: baseUrl, description: 'This server.' }
        : {
            url: '{base_url}',
            description: "The platform's base address, ending in /api/v1.",
            variables: {
              base_url: {
                default: EXAMPLE_BASE_URL,
                description: 'e.g. the reference server of `pressroom platform`',
              },
            },
          },
    ],
    security: [{ bearerAuth: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths: pathsObject(),
    webhooks: webhooksObject(),
    components: componentsObject(),
  };
}

/** The document as docs/openapi.json holds it. */
export function openApiDocumentText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}
