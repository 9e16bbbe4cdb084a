// One door for each operation (issue #29): `call` checks the input against the contract once, as
// `invoke` does, hands the service the checked input (defaults filled), answers a synchronous
// operation at once, and throws an OperationFailed carrying the CallError invoke would answer.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidInput, OperationFailed } from '../../main/core/errors';
import { testWorkspace } from '../support/workspace';
import { call } from '../../main/core/operations';
import { rejectedBy, thrownBy } from '../support/calls';

describe('call, the door for the CLI and tests', () => {
  it('fills the contract defaults before the service sees the input', () => {
    const pressroom = testWorkspace();
    const post = call(pressroom, 'addPost', { text: 'Hello', mode: 'draft' });
    expect(post).toMatchObject({ text: 'Hello', mediaUrls: [], status: 'draft' });
  });

  it('refuses input the contract refuses, with the CallError a page would get', () => {
    const pressroom = testWorkspace();
    // Even an operation without fields refuses stray input, before its service runs.
    const stray = thrownBy(() => call(pressroom, 'status', { extra: 1 } as never));
    expect(stray).toBeInstanceOf(InvalidInput);
    let failure: unknown;
    try {
      call(pressroom, 'addPost', { text: '' });
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(OperationFailed);
    expect((failure as OperationFailed).error).toEqual({
      kind: 'invalid_input',
      message: expect.stringMatching(/^text: /),
      issues: [{ field: 'text', message: expect.any(String) }],
    });
    expect(pressroom.store.posts.list()).toEqual([]);
  });

  it('rejects an asynchronous operation with the same error, the thrown one as its cause', async () => {
    const pressroom = testWorkspace();
    const answer = call(pressroom, 'getBadRows', { id: 'gone' });
    await expect(answer).rejects.toBeInstanceOf(OperationFailed);
    await expect(answer).rejects.toMatchObject({
      error: { kind: 'invalid_input', message: expect.stringMatching(/no longer kept/) },
    });
    expect(await rejectedBy(call(pressroom, 'getBadRows', { id: 'gone' }))).toMatchObject({
      issues: [{ field: 'id' }],
    });
  });

  it('is the only place input is checked: no core service validates again', () => {
    const folder = 'main/core/services';
    for (const file of readdirSync(folder)) {
      const source = readFileSync(join(folder, file), 'utf8');
      expect(source, file).not.toMatch(/\bvalidate\(|from '\.\.\/input'/);
    }
  });
});
