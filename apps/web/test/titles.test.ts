import { describe, expect, it } from 'vitest';
import { confirmHint, signupProblem } from '../src/features/accounts/validation.ts';
import { initialsAvatar, initialsOf } from '../src/components/Avatar.tsx';
import { safeReturnPath } from '../src/lib/paths.ts';
import {
  displayName,
  hasTitle,
  newBookTitle,
  newChapterTitle,
  uniqueTitle,
} from '../src/lib/titles.ts';

describe('title rules (SPEC section 5)', () => {
  it('compares titles case-insensitively', () => {
    expect(hasTitle(['My Book'], 'my book')).toBe(true);
    expect(hasTitle(['My Book'], 'My Book 2')).toBe(false);
  });

  it('refuses a typed title that an existing book has, whatever its case', () => {
    expect(newBookTitle(['Dune', 'Emma'], 'DUNE')).toBeNull();
    expect(newBookTitle(['Dune'], '  Persuasion ')).toBe('Persuasion');
  });

  it("names an empty title 'Untitled Book', counting up ' (n)' from 1 until unique", () => {
    expect(newBookTitle([], '')).toBe('Untitled Book');
    expect(newBookTitle(['untitled book'], '   ')).toBe('Untitled Book (1)');
    expect(newBookTitle(['Untitled Book', 'Untitled Book (1)', 'UNTITLED BOOK (2)'], '')).toBe(
      'Untitled Book (3)',
    );
  });

  it("names new chapters 'Untitled Chapter' the same way", () => {
    expect(newChapterTitle(['Prologue'])).toBe('Untitled Chapter');
    expect(newChapterTitle(['Untitled Chapter', 'Untitled Chapter (2)'])).toBe(
      'Untitled Chapter (1)',
    );
    expect(uniqueTitle(['a', 'a (1)'], 'A')).toBe('A (2)');
  });

  it('shows first and last name, or the username when both are empty', () => {
    expect(displayName({ username: 'ann', first_name: 'Ann', last_name: 'Lee' })).toBe('Ann Lee');
    expect(displayName({ username: 'ann', first_name: '', last_name: 'Lee' })).toBe('Lee');
    expect(displayName({ username: 'ann', first_name: ' ', last_name: '' })).toBe('ann');
  });
});

describe('signup validation', () => {
  it('asks for all three fields first', () => {
    expect(signupProblem({ username: '', password: 'a', confirm: 'a' })).toBe(
      'You must fill out all fields.',
    );
    expect(signupProblem({ username: 'u', password: 'a', confirm: '' })).toBe(
      'You must fill out all fields.',
    );
  });

  it('requires the passwords to match on submit', () => {
    expect(signupProblem({ username: 'u', password: 'secret12', confirm: 'secret13' })).toBe(
      'Passwords must match!',
    );
    expect(signupProblem({ username: 'u', password: 'secret12', confirm: 'secret12' })).toBeNull();
  });

  it('shows the inline hint only while the confirm field is non-empty and differs', () => {
    expect(confirmHint({ username: '', password: 'abc', confirm: '' })).toBeNull();
    expect(confirmHint({ username: '', password: 'abc', confirm: 'ab' })).toBe(
      'Passwords must match.',
    );
    expect(confirmHint({ username: '', password: 'abc', confirm: 'abc' })).toBeNull();
  });
});

describe('return path after login', () => {
  it('follows only paths of this app', () => {
    expect(safeReturnPath('/books/3?x=1')).toBe('/books/3?x=1');
    expect(safeReturnPath(null)).toBe('/home');
    expect(safeReturnPath('https://evil.example')).toBe('/home');
    expect(safeReturnPath('//evil.example')).toBe('/home');
    expect(safeReturnPath('/\\evil.example')).toBe('/home');
    expect(safeReturnPath('/accounts/logout')).toBe('/home');
  });
});

describe('avatar fallback', () => {
  it('draws the initials on a 512 × 512 image', () => {
    expect(initialsOf('Ann Lee')).toBe('AL');
    expect(initialsOf('reader_one')).toBe('RO');
    const svg = decodeURIComponent(initialsAvatar('Ann Lee').split(',')[1]!);
    expect(svg).toContain('width="512"');
    expect(svg).toContain('height="512"');
    expect(svg).toContain('>AL</text>');
  });
});
