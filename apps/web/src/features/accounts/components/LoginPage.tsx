import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useToasts } from '../../../components/toasts.tsx';
import { isApiError } from '../../../lib/api.ts';
import { fieldName, useFormError } from '../../../lib/formError.ts';
import { paths, safeReturnPath } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session.tsx';
import { AuthCard } from './AuthCard.tsx';

const LOGIN_FAILED = 'Incorrect username or password.';

export function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  const { push } = useToasts();
  const [params] = useSearchParams();
  const [pending, setPending] = useState(false);
  // Wrong name or password is about both fields: a change to either takes it away.
  const error = useFormError();

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    error.clear();
    try {
      await session.login(String(form.get('username') ?? ''), String(form.get('password') ?? ''));
      navigate(safeReturnPath(params.get('prev')), { replace: true });
    } catch (err) {
      // Too many attempts, or a suspended account (told only to whoever knows its password), is
      // not a wrong password: say what the server said.
      const message = isApiError(err, 429) || isApiError(err, 403) ? err.detail : LOGIN_FAILED;
      error.show(message);
      push(message, { type: 'ERROR' });
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
            aria-describedby={error.message ? 'login-error' : undefined}
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
            // A refused login is about the pair: the message belongs to both fields.
            aria-describedby={error.message ? 'login-error' : undefined}
          />
        </div>
        {error.message && (
          <p id="login-error" className="form-error" role="alert">
            {error.message}
          </p>
        )}
        <button type="submit" className="button button-block" disabled={pending}>
          {pending ? 'Pending...' : 'Log In'}
        </button>
      </form>
    </AuthCard>
  );
}
