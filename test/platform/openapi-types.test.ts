// The client cannot drift from the document either: openapi-typescript turns docs/openapi.json
// into TypeScript, and the TypeScript compiler checks, type by type, that the client's wire types
// (main/platform/wire.ts) read every answer the document allows and name no field it lacks, and
// that every request body the client builds (main/platform/client.ts) is one the document accepts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import type { OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const DIR = resolve('test-results/openapi-types');

/** [name in the document, the client's type]: the document's answers are read by the type. */
const READS: [string, string][] = [
  ['Bot', 'wire.Bot'],
  ['BotList', 'wire.ListEnvelope<wire.Bot>'],
  ['Subscriber', 'wire.Subscriber'],
  ['SubscriberList', 'wire.ListEnvelope<wire.Subscriber>'],
  ['Message', 'wire.Message'],
  ['Post', 'wire.Post'],
  ['PostList', 'wire.ListEnvelope<wire.Post>'],
  ['Product', 'wire.Product'],
  ['ProductList', 'wire.ListEnvelope<wire.Product>'],
  ['Order', 'wire.Order'],
  ['OrderItem', 'wire.OrderItem'],
  ['OrderList', 'wire.ListEnvelope<wire.Order>'],
  ['AiAttempt', 'wire.AiAttempt'],
  ['AiChatResponse', 'wire.AiChatResponse'],
  ['AiUsage', 'wire.AiUsage'],
  ['WebhookSubscription', 'wire.WebhookSubscription'],
  ['Comment', 'wire.Comment'],
  ['PageMeta', 'wire.PageMeta'],
  ['FieldError', 'wire.FieldError'],
  ['Error', 'wire.ErrorBody'],
  ['MessageReceivedEvent', "Extract<wire.WebhookEvent, { type: 'message.received' }>"],
  ['OrderCreatedEvent', "Extract<wire.WebhookEvent, { type: 'order.created' }>"],
  ['CommentPostedEvent', "Extract<wire.WebhookEvent, { type: 'comment.posted' }>"],
];

/** [name in the document, the client's type]: every such request is one the document accepts. */
const SENDS: [string, string][] = [
  ['BotCreate', 'client.BotCreate'],
  ['BotPatch', 'client.BotPatch'],
  ['MessageCreate', 'client.MessageCreate'],
  ['PostCreate', 'client.PostCreate'],
  ['ProductCreate', 'client.ProductCreate'],
  ['ChatRequest', 'client.AiChatRequest'],
  ['WebhookCreate', 'client.WebhookCreate'],
];

function checkSource(reads: [string, string][], sends: [string, string][]): string {
  return [
    "import type { components } from './openapi';",
    "import type * as client from '../../main/platform/client';",
    "import type * as wire from '../../main/platform/wire';",
    "type Schemas = components['schemas'];",
    'type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;',
    'type Reads<Doc, Wire> = [Doc] extends [Wire] ? SameKeys<Doc, Wire> : false;',
    'type Accepts<Doc, Sent> = [Sent] extends [Doc] ? true : false;',
    'type Check<T extends true> = T;',
    ...reads.map(
      ([name, type]) => `export type Reads_${name} = Check<Reads<Schemas['${name}'], ${type}>>;`,
    ),
    ...sends.map(
      ([name, type]) => `export type Sends_${name} = Check<Accepts<Schemas['${name}'], ${type}>>;`,
    ),
    '',
  ].join('\n');
}

function compile(files: string[]): Map<string, string[]> {
  const config = ts.readConfigFile('tsconfig.json', (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, resolve('.'));
  // The types compared need neither the DOM's nor Node's declarations; leaving them out makes
  // the check take a second instead of six.
  const program = ts.createProgram(files, {
    ...options,
    lib: ['lib.es2023.d.ts'],
    types: [],
    noEmit: true,
  });
  const byFile = new Map<string, string[]>(files.map((file) => [file, []]));
  // Only these files' own diagnostics: the rest of the program is `npm run check`'s business.
  const diagnostics = files.flatMap((file) => [
    ...program.getSyntacticDiagnostics(program.getSourceFile(file)),
    ...program.getSemanticDiagnostics(program.getSourceFile(file)),
  ]);
  for (const diagnostic of diagnostics) {
    const source = diagnostic.file;
    if (!source) continue;
    const { line: index } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const line = source.text.split('\n')[index]?.trim();
    const file = source.fileName;
    byFile
      .get(file)
      ?.push(`${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
  }
  return byFile;
}

describe("the client's types against the OpenAPI document", () => {
  it('read every answer the document gives, and send only requests it accepts', async () => {
    const document = JSON.parse(readFileSync('docs/openapi.json', 'utf8')) as OpenAPI3;
    // A field with a default is optional to send; the server fills it in.
    const types = astToString(await openapiTS(document, { defaultNonNullable: false }));
    mkdirSync(DIR, { recursive: true });
    const check = join(DIR, 'check.ts');
    const broken = join(DIR, 'broken.ts');
    writeFileSync(join(DIR, 'openapi.ts'), types);
    writeFileSync(check, checkSource(READS, SENDS));
    // The same check on pairs that do not fit, to show it can fail.
    writeFileSync(
      broken,
      checkSource([['Bot', 'wire.Post']], [['PostCreate', 'client.BotCreate']]),
    );

    const diagnostics = compile([check, broken]);
    expect(diagnostics.get(check)).toEqual([]);
    expect(diagnostics.get(broken)?.map((line) => line.split(' = ')[0])).toEqual([
      'export type Reads_Bot',
      'export type Sends_PostCreate',
    ]);
  });
});
