import {
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from '@inkwell/contract/constants';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { SubmitButton } from '../../../components/BusyButton.tsx';
import { useToasts } from '../../../components/toasts.tsx';
import { isApiError } from '../../../lib/api.ts';
import { REDIRECT_AFTER_SIGNUP_MS, SIGNUP_TOAST_MS } from '../../../lib/constants.ts';
import { paths } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session.tsx';
import { useFieldError } from '../../../lib/fieldError.tsx';
import { confirmHint, problemFields, signupProblem, type SignupFields } from '../validation.ts';
import { AuthCard } from './AuthCard.tsx';

const SIGNUP_FAILED = 'Could not create user account.';
const LOGIN_AFTER_SIGNUP_FAILED = 'Could not log in';
const SIGNUP_DONE = 'Created user! Redirecting...';

export function SignupPage() {
  const session = useSession();
  const navigate = useNavigate();
  const { push } = useToasts();
  const [fields, setFields] = useState<SignupFields>({ username: '', password: '', confirm: '' });
  const [pending, setPending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const error = useFieldError('signup', form);
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirect.current), []);

  const set = (name: keyof SignupFields) => (e: { target: { value: string } }) => {
    setFields((f) => ({ ...f, [name]: e.target.value }));
    // Fixing the field that caused the error takes the error away at once.
    error.changed(name);
  };
  const hint = confirmHint(fields);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = signupProblem(fields);
    if (problem) {
      error.show(problem, problemFields(problem, fields));
      return;
    }
    error.clear();
    setPending(true);
    let loggedIn: boolean;
    try {
      ({ loggedIn } = await session.signup(fields.username, fields.password));
    } catch (err) {
      // The server says why (name taken, password too short): show it beside the form.
      if (isApiError(err) && err.status !== 0 && err.status < 500) {
        push(SIGNUP_FAILED, { type: 'ERROR' });
        error.show(err.detail, error.fieldsOf(err));
      } else {
        // The form says the toast's words itself, and is heard there: the toast is not announced.
        push(SIGNUP_FAILED, { type: 'ERROR', announce: false });
        error.show(SIGNUP_FAILED);
      }
      setPending(false);
      return;
    }
    if (!loggedIn) {
      push(LOGIN_AFTER_SIGNUP_FAILED, { type: 'ERROR' });
      setPending(false);
      return;
    }
    push(SIGNUP_DONE, { type: 'SUCCESS', timeout: SIGNUP_TOAST_MS });
    redirect.current = setTimeout(() => navigate(paths.home), REDIRECT_AFTER_SIGNUP_MS);
  };

  return (
    <AuthCard
      title="Sign Up"
      footer={
        <>
          Already have an account? <Link to={paths.login()}>Log in</Link>
        </>
      }
    >
      <form className="form" ref={form} onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="signup-username">Username</label>
          <input
            id="signup-username"
            name="username"
            autoComplete="username"
            value={fields.username}
            onChange={set('username')}
            {...error.fieldProps('username', { describedBy: 'signup-username-help' })}
          />
          <p id="signup-username-help" className="field-help">
            {USERNAME_MIN_LENGTH} to {USERNAME_MAX_LENGTH} letters, digits, dots, dashes or
            underscores.
          </p>
          {error.messageAt('username')}
        </div>
        <div className="field">
          <label htmlFor="signup-password">Password</label>
          <input
            id="signup-password"
            name="password"
            type="password"
            autoComplete="new-password"
            value={fields.password}
            onChange={set('password')}
            {...error.fieldProps('password', { describedBy: 'signup-password-help' })}
          />
          <p id="signup-password-help" className="field-help">
            At least {PASSWORD_MIN_LENGTH} characters.
          </p>
          {error.messageAt('password')}
        </div>
        <div className="field">
          <label htmlFor="signup-confirm">Confirm password</label>
          <input
            id="signup-confirm"
            name="confirm"
            type="password"
            autoComplete="new-password"
            value={fields.confirm}
            onChange={set('confirm')}
            {...error.fieldProps('confirm', {
              describedBy: hint ? 'signup-confirm-hint' : undefined,
              invalid: hint !== null,
            })}
          />
          {hint && (
            <p id="signup-confirm-hint" className="field-error">
              {hint}
            </p>
          )}
          {error.messageAt('confirm')}
        </div>
        {error.formMessage()}
        <SubmitButton className="button button-block" busy={pending}>
          {pending ? 'Pending...' : 'Submit'}
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
