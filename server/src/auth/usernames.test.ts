import { LIMITS, USERNAME_PATTERN } from '@tally/contract';
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { deriveUsername, randomSuffix } from './usernames.js';

/** isTaken over a set of names (ignoring case, as the unique index does), counting the checks. */
function takenNames(...names: string[]) {
  const taken = new Set(names.map((name) => name.toLowerCase()));
  const checked: string[] = [];
  return {
    checked,
    isTaken: async (candidate: string) => {
      checked.push(candidate);
      return taken.has(candidate.toLowerCase());
    },
  };
}

const valid = new RegExp(USERNAME_PATTERN);

describe('deriveUsername', () => {
  it("is the e-mail's local part, reduced to the allowed characters, when that is free", async () => {
    const names = takenNames();
    expect(await deriveUsername('Jane.Doe+tally@gmail.com', names.isTaken)).toBe('Jane.Doetally');
    expect(names.checked).toEqual(['Jane.Doetally']);
  });

  it('pads a name shorter than the minimum with "user"', async () => {
    expect(await deriveUsername('j@gmail.com', takenNames().isTaken)).toBe('juser');
    expect(await deriveUsername('+@gmail.com', takenNames().isTaken)).toBe('user');
  });

  it('adds "-" and a random base-36 suffix when the name is taken, with one check per try', async () => {
    const names = takenNames('sam', 'sam2', 'sam3');
    const name = await deriveUsername('sam@gmail.com', names.isTaken);
    expect(name).toMatch(/^sam-[0-9a-z]{5}$/);
    expect(names.checked).toEqual(['sam', name]);
  });

  it('retries another suffix on a clash', async () => {
    const suffixes = ['aaaaa', 'bbbbb', 'ccccc'];
    const names = takenNames('Sam', 'sam-aaaaa', 'SAM-BBBBB');
    const name = await deriveUsername(
      'sam@gmail.com',
      names.isTaken,
      () => suffixes.shift() ?? 'zzzzz',
    );
    expect(name).toBe('sam-ccccc');
    expect(names.checked).toEqual(['sam', 'sam-aaaaa', 'sam-bbbbb', 'sam-ccccc']);
  });

  it('shortens a long name so that the suffix fits within the maximum length', async () => {
    const local = 'a'.repeat(40);
    const names = takenNames('a'.repeat(LIMITS.usernameMax));
    const name = await deriveUsername(`${local}@gmail.com`, names.isTaken);
    expect(name).toHaveLength(LIMITS.usernameMax);
    expect(name).toMatch(/^a{26}-[0-9a-z]{5}$/);
    expect(name).toMatch(valid);
  });

  it('gives up after a few tries with a 409 instead of probing on', async () => {
    let checks = 0;
    const error = await deriveUsername('sam@gmail.com', async () => {
      checks += 1;
      return true;
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      statusCode: 409,
      message: 'Please try signing in with Google again',
    });
    expect(checks).toBe(6);
  });
});

describe('randomSuffix', () => {
  it('is five base-36 characters, zero-padded, and varies', () => {
    const seen = new Set(Array.from({ length: 200 }, () => randomSuffix()));
    for (const suffix of seen) expect(suffix).toMatch(/^[0-9a-z]{5}$/);
    expect(seen.size).toBeGreaterThan(190);
  });
});
