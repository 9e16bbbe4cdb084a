// `npm run openapi`: writes the reference server's OpenAPI document to docs/openapi.json, where
// people and tools read it without running the server (Node, script).
import { writeFileSync } from 'node:fs';
import { openApiDocumentText } from './openapi';

const file = new URL('../../docs/openapi.json', import.meta.url);
writeFileSync(file, openApiDocumentText());
console.log(`wrote ${file.pathname}`);
