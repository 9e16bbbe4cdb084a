// The paths of the OpenAPI document of the reference server (Node, main process): each operation
// with its parameters, its answers, and the errors it can get from what it is (read or write,
// query, path id, body) and the rate limit every request passes.
import { headersOf, inlineSchema, JSON_TYPE, RATE_HEADERS, ref } from './components';
import type { Json } from './components';
import { ERROR_CODES, STATUS_TEXT } from './errors';
import type { ErrorCode } from './errors';
import { isWrite, OPERATIONS, QUERY_NOTES } from './operations';
import type { OperationSpec } from './operations';

/** Refusals that come from running the request, so an Idempotency-Key replays them. */
const REPLAYED_STATUSES = new Set([400, 404, 409, 422]);

/** Every error code an operation can answer, from what it is. */
function errorCodesOf(operation: OperationSpec): ErrorCode[] {
  return [
    ...(operation.query ? (['invalid_query'] as const) : []),
    ...(isWrite(operation) ? (['invalid_json', 'invalid_request'] as const) : []),
    'unauthorized',
    'forbidden',
    ...(operation.pathId ? (['not_found'] as const) : []),
    ...(operation.extraErrors ?? []),
    ...(isWrite(operation)
      ? ([
          'idempotency_in_progress',
          'payload_too_large',
          'unsupported_media_type',
          ...(operation.body ? (['validation_failed'] as const) : []),
          'idempotency_key_reused',
        ] as const)
      : []),
    'rate_limited',
    'internal_error',
    'service_unavailable',
  ];
}

function errorResponses(operation: OperationSpec): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(operation)) {
    const [status] = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const replayable = isWrite(operation) ? ['Idempotent-Replayed'] : [];
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => {
      const headers =
        status === 401
          ? headersOf(['WWW-Authenticate'])
          : status === 429
            ? headersOf([...RATE_HEADERS, 'Retry-After'])
            : headersOf([...RATE_HEADERS, ...(REPLAYED_STATUSES.has(status) ? replayable : [])]);
      return [
        String(status),
        {
          description: [
            `${STATUS_TEXT[status]}.`,
            ...codes.map((code) => `- \`${code}\`: ${ERROR_CODES[code][1]}`),
          ].join('\n'),
          headers,
          content: { [JSON_TYPE]: { schema: ref('schemas', 'Error') } },
        },
      ];
    }),
  );
}

function parametersOf(operation: OperationSpec): Json[] {
  const parameters: Json[] = [];
  if (operation.pathId) {
    parameters.push({
      name: 'id',
      in: 'path',
      required: true,
      description: `The ${operation.pathId}'s id.`,
      schema: { type: 'string' },
    });
  }
  if (operation.query) {
    const properties = inlineSchema(operation.query).properties as Record<string, Json>;
    for (const [name, property] of Object.entries(properties)) {
      // A query integer's digits are what `type: integer` already says on the wire.
      const { pattern: _digits, ...schema } = property;
      parameters.push({
        name,
        in: 'query',
        required: false,
        description: operation.queryNotes?.[name] ?? QUERY_NOTES[name] ?? `Filter by ${name}.`,
        schema: property.type === 'integer' ? schema : property,
      });
    }
  }
  if (isWrite(operation)) parameters.push(ref('parameters', 'IdempotencyKey'));
  return parameters;
}

function operationObject(operation: OperationSpec): Json {
  const replayable = isWrite(operation) ? ['Idempotent-Replayed'] : [];
  const success = Object.fromEntries(
    operation.success.map(({ status, description, schema }) => [
      String(status),
      {
        description,
        headers: headersOf([...RATE_HEADERS, ...replayable]),
        ...(schema ? { content: { [JSON_TYPE]: { schema: ref('schemas', schema) } } } : {}),
      },
    ]),
  );
  const parameters = parametersOf(operation);
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: operation.description,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: { [JSON_TYPE]: { schema: ref('schemas', operation.body) } },
          },
        }
      : {}),
    responses: { ...success, ...errorResponses(operation) },
  };
}

export function pathsObject(): Json {
  const paths: Record<string, Json> = {};
  for (const operation of OPERATIONS) {
    paths[operation.path] = {
      ...paths[operation.path],
      [operation.method]: operationObject(operation),
    };
  }
  return paths;
}
