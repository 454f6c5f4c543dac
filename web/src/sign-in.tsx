// Sign in: paste a token (`berth auth token`), or go through an identity
// provider by its uid.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { ErrorMessage } from './error-message.js';
import { finishProviderLogin, startProviderLogin } from './provider-login.js';
import { navigate } from './router.js';
import { currentToken, setToken } from './session.js';

export function SignIn() {
  const [token, setValue] = useState('');
  // An operator may link to /ui/?identityProvider=<uid> so people need not know the uid.
  const [provider, setProvider] = useState(new URLSearchParams(location.search).get('identityProvider') ?? '');
  const [error, setError] = useState<unknown>();
  const useToken = async (e: Event) => {
    e.preventDefault();
    setToken(token);
    try {
      await api('GET', '/iam/v2/groups?pageSize=1');
      setError(undefined);
    } catch (err) {
      setToken('');
      setError(err);
    }
  };
  return (
    <section class="sign-in">
      <h1>Sign in to Berth</h1>
      <form class="stack" onSubmit={useToken}>
        <label>
          Token (from <code>berth auth token</code>)
          <textarea value={token} required rows={4} maxLength={16384} autoComplete="off" spellcheck={false} onInput={(e) => setValue(e.currentTarget.value)} />
        </label>
        <button type="submit">Sign in with this token</button>
      </form>
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          startProviderLogin(provider.trim()).catch(setError);
        }}
      >
        <label>
          Identity provider uid
          <input value={provider} required maxLength={200} onInput={(e) => setProvider(e.currentTarget.value)} />
        </label>
        <button type="submit">Sign in through the provider</button>
      </form>
      <ErrorMessage error={error} />
      <p class="hint">The token stays in this tab only (memory and its session storage); closing the tab or signing out forgets it.</p>
    </section>
  );
}

export function Callback({ query }: { query: URLSearchParams }) {
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    finishProviderLogin(query).then((t) => {
      setToken(t);
      navigate('/ui/');
    }, setError);
  }, []);
  if (currentToken() && !error) return <p>Signed in.</p>;
  return (
    <section>
      <h1>Signing in…</h1>
      <ErrorMessage error={error} />
      {error ? <a href="/ui/">Back to sign in</a> : null}
    </section>
  );
}
