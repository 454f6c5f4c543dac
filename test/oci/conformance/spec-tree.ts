// The little of ginkgo/gomega the port needs, on node:test. g.Context becomes a
// describe, g.Specify an it, run in the order written (node:test runs the tests
// of a file one after another, as ginkgo runs the specs of one Describe), with
// state shared through closures exactly as the Go specs share package variables;
// a failed spec does not stop the next one, as in ginkgo. g.Skip and RunOnlyIf
// throw a SkipSignal that marks the spec skipped. Each spec's outcome is
// recorded under its path ("Push > Blob Upload Chunked > …") so a caller can
// check that the specs it marks `todo` really fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Response } from './client.js';

export type Outcome = 'passed' | 'failed' | 'skipped';

class SkipSignal extends Error {}

/** g.Skip: stops the spec and reports it skipped. */
export function skip(reason: string): never {
  throw new SkipSignal(reason);
}

/** setup.go RunOnlyIf. */
export function runOnlyIf(v: boolean): void {
  if (!v) skip('you have skipped this test.');
}

/** setup.go RunOnlyIfNot. */
export function runOnlyIfNot(v: boolean): void {
  if (v) skip('you have skipped this test.');
}

/** setup.go Warn: the spec goes on; the warning is printed as a diagnostic. */
export function warn(message: string): void {
  process.stderr.write(`WARNING: ${message}\n`);
}

export interface RunState {
  /** Spec path → reason: specs expected to fail (node:test `todo`). */
  todo: ReadonlyMap<string, string>;
  outcomes: Map<string, Outcome>;
}

export class SpecTree {
  constructor(
    private readonly path: string[],
    private readonly state: RunState,
  ) {}

  /** g.Context */
  context(name: string, body: (tree: SpecTree) => void): void {
    describe(name, () => body(new SpecTree([...this.path, name], this.state)));
  }

  /** g.Specify */
  specify(name: string, fn: () => Promise<void>): void {
    const key = [...this.path, name].join(' > ');
    const todo = this.state.todo.get(key);
    it(name, todo === undefined ? {} : { todo }, async (t) => {
      try {
        await fn();
      } catch (e) {
        if (e instanceof SkipSignal) {
          this.state.outcomes.set(key, 'skipped');
          t.skip(e.message);
          return;
        }
        this.state.outcomes.set(key, 'failed');
        throw e;
      }
      // two specs of one context may share a name (Pull > Setup): any failure wins
      if (this.state.outcomes.get(key) !== 'failed') this.state.outcomes.set(key, 'passed');
    });
  }
}

// gomega's matchers as the specs use them, with the exchange in every message.

/** Expect(resp.StatusCode()).To(Equal(code)) */
export function expectStatus(resp: Response, code: number): void {
  assert.equal(resp.statusCode, code, resp.describe());
}

/** SatisfyAny(Equal(a), Equal(b), …); the entry '2xx' stands for SatisfyAll(>= 200, < 300). */
export function expectStatusIn(resp: Response, allowed: Array<number | '2xx'>): void {
  const s = resp.statusCode;
  const ok = allowed.some((a) => (a === '2xx' ? s >= 200 && s < 300 : s === a));
  assert.ok(ok, `expected status ${allowed.join(' or ')}: ${resp.describe()}`);
}

/** Expect(value).ToNot(BeEmpty()) */
export function expectNotEmpty(value: string, what: string, resp?: Response): void {
  assert.notEqual(value, '', `${what} is empty${resp ? `: ${resp.describe()}` : ''}`);
}

/** Expect(resp.Header().Get(name)).To(Equal(want)) */
export function expectHeader(resp: Response, name: string, want: string): void {
  assert.equal(resp.header(name), want, `header ${name}: ${resp.describe()}`);
}

/** Expect(json.Unmarshal(resp.Body(), &v)).To(BeNil()): the body through a Go-strict decoder. */
export function decodeBody<T>(resp: Response, decode: (text: string) => T): T {
  try {
    return decode(resp.text());
  } catch (e) {
    assert.fail(`body does not unmarshal (${(e as Error).message}): ${resp.describe()}`);
  }
}
