// API keys: the keys the caller may see (a member their own, admins and the owner all), with
// their limits and this month's spend; create one (its secret shown once, here, and kept nowhere);
// Revoke. The API decides who may revoke what (403 shown as it comes).
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, type Body, type Ok } from '../api';

type Key = Ok<'/v1/api-keys', 'get'>['apiKeys'][number];
type Created = Ok<'/v1/api-keys', 'post'>;

const list = (values: string[] | null | undefined) => (values && values.length ? values.join(', ') : 'any');
const usd = (value: number | null) => (value === null ? 'none' : `$${value.toFixed(2)}`);

export function Keys() {
  const [keys, setKeys] = useState<Key[]>([]);
  const [created, setCreated] = useState<Created | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    api('get', '/v1/api-keys').then(
      (res) => setKeys(res.apiKeys),
      (caught: unknown) => setError(caught instanceof ApiError ? caught.message : 'Could not load keys'),
    );
  }, []);
  useEffect(load, [load]);

  const create = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const body: Body<'/v1/api-keys', 'post'> = { name: text('name') };
    if (text('models')) body.models = text('models').split(',').map((m) => m.trim()).filter(Boolean);
    if (text('monthlyBudget')) body.monthlyBudget = Number(text('monthlyBudget'));
    if (text('rateLimitPerMinute')) body.rateLimitPerMinute = Number(text('rateLimitPerMinute'));
    setError(null);
    try {
      setCreated(await api('post', '/v1/api-keys', { body }));
      form.reset();
      load();
    } catch (caught) {
      setError(caught instanceof ApiError ? `${caught.message}${caught.param ? ` (${caught.param})` : ''}` : 'The key was not created');
    }
  };

  const revoke = async (key: Key) => {
    setError(null);
    try {
      await api('delete', '/v1/api-keys/{id}', { params: { id: key.id } });
      if (created?.id === key.id) setCreated(null);
      load();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The key was not revoked');
    }
  };

  return (
    <section aria-labelledby="keys-heading">
      <h1 id="keys-heading">API keys</h1>
      {error && <p class="error" role="alert">{error}</p>}
      {created && (
        <div class="card created" role="status">
          <p>
            <strong>{created.name}</strong>: copy this key now, it is not shown again.
          </p>
          <label>
            New API key
            <input readOnly value={created.key} data-testid="created-key" onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
          </label>
          <button type="button" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      <form class="card" aria-labelledby="create-key-heading" onSubmit={create}>
        <h2 id="create-key-heading">Create a key</h2>
        <div class="fields">
          <label>
            Name
            <input name="name" required maxLength={100} />
          </label>
          <label>
            Models (comma-separated, empty for any)
            <input name="models" />
          </label>
          <label>
            Monthly budget (USD)
            <input name="monthlyBudget" type="number" min="0" step="0.01" />
          </label>
          <label>
            Requests per minute
            <input name="rateLimitPerMinute" type="number" min="1" step="1" />
          </label>
        </div>
        <button type="submit" class="primary">
          Create key
        </button>
      </form>
      <h2>Keys</h2>
      <div class="table-scroll" role="region" aria-label="API keys table" tabIndex={0}>
        <table>
          <caption class="visually-hidden">API keys with their limits</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Models</th>
              <th scope="col">Budget</th>
              <th scope="col">Rate</th>
              <th scope="col">MCP tools</th>
              <th scope="col">Spent this month</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>{list(key.models)}</td>
                <td>{usd(key.monthlyBudget)}</td>
                <td>{key.rateLimitPerMinute === null ? 'default' : `${key.rateLimitPerMinute}/min`}</td>
                <td>{list(key.mcpTools)}</td>
                <td>{usd(key.spentThisMonth)}</td>
                <td>{key.revokedAt ? 'revoked' : 'active'}</td>
                <td>
                  {!key.revokedAt && (
                    <button type="button" class="danger" onClick={() => revoke(key)}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
