import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useToasts } from '../../../components/toasts.tsx';
import { isApiError } from '../../../lib/api.ts';
import { paths, safeReturnPath } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session.tsx';
import { AuthCard } from './AuthCard.tsx';

export const LOGIN_FAILED = 'Incorrect username or password.';

export function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  const { push } = useToasts();
  const [params] = useSearchParams();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    try {
      await session.login(String(form.get('username') ?? ''), String(form.get('password') ?? ''));
      navigate(safeReturnPath(params.get('prev')), { replace: true });
    } catch (err) {
      // Too many attempts is not a wrong password: say what the server said.
      const message = isApiError(err, 429) ? err.detail : LOGIN_FAILED;
      setError(message);
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
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="login-username">Username</label>
          <input
            id="login-username"
            name="username"
            autoComplete="username"
            required
            aria-describedby={error ? 'login-error' : undefined}
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
          />
        </div>
        {error && (
          <p id="login-error" className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button-block" disabled={pending}>
          {pending ? 'Pending...' : 'Log In'}
        </button>
      </form>
    </AuthCard>
  );
}
