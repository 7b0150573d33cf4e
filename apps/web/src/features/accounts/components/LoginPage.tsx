import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { SubmitButton } from '../../../components/BusyButton.tsx';
import { useToasts } from '../../../components/toasts.tsx';
import { isApiError, type ApiError } from '../../../lib/api.ts';
import { useFieldError } from '../../../lib/fieldError.tsx';
import { fieldName } from '../../../lib/formError.ts';
import { paths, safeReturnPath } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session.tsx';
import { AuthCard } from './AuthCard.tsx';

const LOGIN_FAILED = 'Incorrect username or password.';
const LOGIN_UNFINISHED = 'Could not log in. Try again.';

/** Refusals of a login that say something other than a wrong name or password. */
const notThePair = (err: ApiError) => err.status === 429 || err.status === 403;

export function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  const { push } = useToasts();
  const [params] = useSearchParams();
  const [pending, setPending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const error = useFieldError('login', form);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    error.clear();
    try {
      await session.login(String(form.get('username') ?? ''), String(form.get('password') ?? ''));
      navigate(safeReturnPath(params.get('prev')), { replace: true });
    } catch (err) {
      // A refused name and password is about the pair, and the server will not say which is wrong:
      // one message below the form, both fields marked and described by it (a change to either
      // takes it away), the focus on the first. Anything else is about neither field: too many
      // attempts or a suspended account (told only to whoever knows its password), an
      // unreachable or failing server, or a session that could not be read after the login.
      const thePair = isApiError(err) && err.status >= 400 && err.status < 500 && !notThePair(err);
      const message = thePair ? LOGIN_FAILED : isApiError(err) ? err.detail : LOGIN_UNFINISHED;
      error.show(message, thePair ? ['username', 'password'] : null);
      // The form says it, and is heard there (the focus moved to a field it describes, or an
      // alert): the toast shows it too, but is not announced a second time.
      push(message, { type: 'ERROR', announce: false });
      setPending(false);
    }
  };

  return (
    <AuthCard
      title="Log In"
      footer={
        <>
          New to Inkwell? <Link to={paths.signup}>Sign up</Link>
        </>
      }
    >
      <form
        className="form"
        ref={form}
        onSubmit={submit}
        onInput={(e) => error.changed(fieldName(e))}
        noValidate
      >
        <div className="field">
          <label htmlFor="login-username">Username</label>
          <input
            id="login-username"
            name="username"
            autoComplete="username"
            required
            {...error.fieldProps('username')}
          />
        </div>
        <div className="field">
          <label htmlFor="login-password">Password</label>
          <input
            id="login-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            {...error.fieldProps('password')}
          />
        </div>
        {error.formMessage()}
        <SubmitButton className="button button-block" busy={pending}>
          {pending ? 'Pending...' : 'Log In'}
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
