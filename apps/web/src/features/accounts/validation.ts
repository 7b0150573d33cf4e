/** Signup checks of SPEC section 5, in the order they are reported. */
export const ALL_FIELDS = 'You must fill out all fields.';
export const PASSWORDS_MUST_MATCH = 'Passwords must match!';
const PASSWORDS_MUST_MATCH_INLINE = 'Passwords must match.';

export interface SignupFields {
  username: string;
  password: string;
  confirm: string;
}

/** The problem that stops a submit, or null when the form may be sent. */
export function signupProblem({ username, password, confirm }: SignupFields): string | null {
  if (!username || !password || !confirm) return ALL_FIELDS;
  if (password !== confirm) return PASSWORDS_MUST_MATCH;
  return null;
}

/** The fields that cause `problem`: the empty ones, or the two passwords that differ. */
export function problemFields(problem: string, fields: SignupFields): (keyof SignupFields)[] {
  if (problem === ALL_FIELDS)
    return (['username', 'password', 'confirm'] as const).filter((name) => !fields[name]);
  return ['password', 'confirm'];
}

/** The inline hint while typing: shown only once the confirm field has something that differs. */
export const confirmHint = ({ password, confirm }: SignupFields): string | null =>
  confirm !== '' && confirm !== password ? PASSWORDS_MUST_MATCH_INLINE : null;
