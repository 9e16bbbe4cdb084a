// A transport for component tests: answers each operation from a table, records every call,
// and lets a test push core events; with the answers the tests share.
import type { OperationName } from '../../shared/contract';
import type { CallErrorKind, CallResult, CoreEvent } from '../../shared/answers';
import type { Transport } from '../../renderer/src/lib/api';

export type Answer = (input: unknown) => CallResult | Promise<CallResult>;

export class FakeTransport implements Transport {
  readonly calls: { operation: OperationName; input: unknown }[] = [];
  private readonly listeners = new Set<(event: CoreEvent) => void>();

  constructor(private readonly answers: Partial<Record<OperationName, Answer>> = {}) {}

  answer(operation: OperationName, answer: Answer): void {
    this.answers[operation] = answer;
  }

  /** The files sent with upload, as text, by the id each was answered with. */
  readonly uploads = new Map<string, { fileName: string; text: string }>();

  async upload(fileName: string, bytes: ArrayBuffer): Promise<CallResult<{ upload: string }>> {
    const upload = `upload-${this.uploads.size + 1}`;
    this.uploads.set(upload, { fileName, text: new TextDecoder().decode(bytes) });
    return { ok: true, value: { upload } };
  }

  /** The text of the file an upload id names ('' when none). */
  uploaded(upload: string | undefined): string {
    return this.uploads.get(upload ?? '')?.text ?? '';
  }

  async call(operation: OperationName, input: unknown): Promise<CallResult> {
    this.calls.push({ operation, input });
    const answer = this.answers[operation];
    if (!answer)
      return {
        ok: false,
        error: { kind: 'unknown_operation', message: `no answer for ${operation}` },
      };
    return answer(input);
  }

  events(listener: (event: CoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: CoreEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  callsOf(operation: OperationName): unknown[] {
    return this.calls.filter((call) => call.operation === operation).map((call) => call.input);
  }
}

export const ok = <T>(value: T): CallResult<T> => ({ ok: true, value });

/** The core's refusal of a call, in its words. */
export const refused = (message: string, kind: CallErrorKind = 'invalid_input'): CallResult => ({
  ok: false,
  error: { kind, message },
});
