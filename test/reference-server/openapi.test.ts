// The OpenAPI document: the committed docs/openapi.json is the generated one, the reference server
// serves it without a token, and it describes exactly the server's routes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiDocument, openApiDocumentText } from '../../main/reference-server/openapi';
import { apiRoutes } from '../../main/reference-server/routes';
import { startTestPlatform } from '../support/platform';

interface Document {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, { operationId: string }>>;
  webhooks: Record<string, unknown>;
}

/** The 17 endpoints of the platform's spec, section 4. */
const SPEC_ENDPOINTS = [
  'GET /bots',
  'GET /bots/{id}',
  'POST /bots',
  'PATCH /bots/{id}',
  'DELETE /bots/{id}',
  'GET /subscribers',
  'GET /subscribers/{id}',
  'POST /subscribers/{id}/messages',
  'POST /subscribers/{id}/tags',
  'GET /posts',
  'POST /posts',
  'GET /products',
  'POST /products',
  'GET /orders',
  'POST /ai/chat',
  'GET /ai/usage',
  'POST /webhooks',
];

function endpointsOf(document: Document): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe('the OpenAPI document', () => {
  it('is committed as generated (run `npm run openapi` after changing a schema)', () => {
    expect(readFileSync('docs/openapi.json', 'utf8')).toBe(openApiDocumentText());
  });

  it("lists the spec's 17 operations, which are the server's routes, and the three events", () => {
    const document = openApiDocument() as unknown as Document;
    expect(document.openapi).toBe('3.1.0');
    expect(endpointsOf(document).sort()).toEqual([...SPEC_ENDPOINTS].sort());
    const routes = apiRoutes.map(
      (route) =>
        `${route.method} /${route.segments.map((s) => (s.startsWith(':') ? `{${s.slice(1)}}` : s)).join('/')}`,
    );
    expect(routes.sort()).toEqual([...SPEC_ENDPOINTS].sort());
    expect(Object.keys(document.webhooks).sort()).toEqual([
      'comment.posted',
      'message.received',
      'order.created',
    ]);
  });

  it('is served at {base_url}/openapi.json without a token, naming that server', async () => {
    const { server } = await startTestPlatform();
    const response = await fetch(`${server.baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const served = (await response.json()) as Document;
    expect(served.servers).toEqual([{ url: server.baseUrl, description: 'This server.' }]);
    expect({ ...served, servers: [] }).toEqual({ ...openApiDocument(), servers: [] });
    // Only the document is public: the API next to it still wants a token.
    expect((await fetch(`${server.baseUrl}/bots`)).status).toBe(401);
  });
});
