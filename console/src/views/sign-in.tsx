// Sign-in: email and password, an owner's or admin's API key exchanged for a session (the key is
// sent once and never kept in the browser), or OpenID Connect (which returns to the console).
import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const attempt = async (event: Event, call: (form: FormData) => Promise<unknown>) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setBusy(true);
    setError(null);
    try {
      await call(new FormData(form));
      form.reset();
      onSignedIn();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Sign-in failed');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <h1>Sign in to the console</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <form
        aria-labelledby="password-heading"
        onSubmit={(event) =>
          attempt(event, (form) => api('post', '/v1/auth/login', { body: { email: String(form.get('email')), password: String(form.get('password')) } }))
        }
      >
        <h2 id="password-heading">Email and password</h2>
        <label>
          Email
          <input name="email" type="email" autocomplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <form
        aria-labelledby="key-heading"
        onSubmit={(event) => attempt(event, (form) => api('post', '/v1/auth/api-key', { body: { apiKey: String(form.get('apiKey')) } }))}
      >
        <h2 id="key-heading">API key</h2>
        <p class="hint">An owner's or admin's key without limits. It is exchanged for a session and not kept in this browser.</p>
        <label>
          API key
          <input name="apiKey" type="password" autocomplete="off" spellcheck={false} required />
        </label>
        <button type="submit" disabled={busy}>
          Sign in with key
        </button>
      </form>
      <p>
        <a href="/v1/auth/oidc/login?returnTo=console">Sign in with single sign-on</a>
      </p>
    </main>
  );
}
