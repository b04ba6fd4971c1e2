// Skills and tool connections, read-mostly: the skills the caller can see with their current
// version (each one's versions on demand, GET /v1/skills/{id}), and the caller's own tool
// connections with their health (status, last check, its result) and "Test connection", which runs
// the API's health check (POST /v1/tools/connections/{id}/test). Connections are per user: the API
// lists only the caller's, for admins too.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, type Ok } from '../api';

type Skill = Ok<'/v1/skills', 'get'>['skills'][number];
type Version = Ok<'/v1/skills/{id}', 'get'>['versions'][number];
type Connection = Ok<'/v1/tools/connections', 'get'>['connections'][number];
type TestResult = Ok<'/v1/tools/connections/{id}/test', 'post'>;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
const message = (caught: unknown, fallback: string) => (caught instanceof ApiError ? caught.message : fallback);

export function SkillsAndTools() {
  return (
    <section aria-labelledby="skills-heading">
      <h1 id="skills-heading">Skills and tool connections</h1>
      <Skills />
      <Connections />
    </section>
  );
}

function Skills() {
  const [skills, setSkills] = useState<Skill[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api('get', '/v1/skills', { query: { limit: 100 } }).then(
      (res) => {
        setSkills(res.skills);
        setTotal(res.total);
      },
      (caught: unknown) => setError(message(caught, 'Could not load the skills')),
    );
  }, []);
  return (
    <>
      <h2 id="skills-list-heading">Skills</h2>
      {error && <p class="error" role="alert">{error}</p>}
      {skills && skills.length === 0 && <p>No skills yet.</p>}
      {skills && total > skills.length && <p class="hint">The newest {skills.length} of {total}.</p>}
      <ul class="cards" aria-labelledby="skills-list-heading">
        {skills?.map((skill) => (
          <SkillCard key={skill.id} skill={skill} />
        ))}
      </ul>
    </>
  );
}

function SkillCard({ skill }: { skill: Skill }) {
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = (event: Event) => {
    if (!(event.currentTarget as HTMLDetailsElement).open || versions) return;
    api('get', '/v1/skills/{id}', { params: { id: skill.id } }).then(
      (res) => setVersions(res.versions),
      (caught: unknown) => setError(message(caught, 'Could not load the versions')),
    );
  };
  return (
    <li class="card">
      <h3 id={`skill-${skill.id}`}>{skill.name}</h3>
      <p class="meta">
        version {skill.currentVersion} · {skill.category} · {skill.visibility} · {skill.status} · model tier {skill.modelTier} · updated {when(skill.updatedAt)}
      </p>
      {skill.description && <p>{skill.description}</p>}
      <p class="meta">Tools: {skill.tools.length ? skill.tools.join(', ') : 'none'}</p>
      <details onToggle={load}>
        <summary>Versions of {skill.name}</summary>
        {error && <p class="error" role="alert">{error}</p>}
        {versions && (
          <div class="table-scroll" role="region" aria-label={`Versions of ${skill.name} table`} tabIndex={0}>
            <table>
              <caption class="visually-hidden">Versions of {skill.name}, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">Model tier</th>
                  <th scope="col">Tools</th>
                  <th scope="col">Notes</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {versions.map((version) => (
                  <tr key={version.version}>
                    <td>
                      {version.version}
                      {version.version === skill.currentVersion && <span class="meta"> (current)</span>}
                    </td>
                    <td>{version.modelTier}</td>
                    <td>{version.tools.length ? version.tools.join(', ') : 'none'}</td>
                    <td>{version.notes ?? '—'}</td>
                    <td>{when(version.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </details>
    </li>
  );
}

function Connections() {
  const [connections, setConnections] = useState<Connection[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    api('get', '/v1/tools/connections').then(
      (res) => setConnections(res.connections),
      (caught: unknown) => setError(message(caught, 'Could not load the connections')),
    );
  }, []);
  useEffect(load, [load]);
  return (
    <>
      <h2 id="connections-heading">Your tool connections</h2>
      {error && <p class="error" role="alert">{error}</p>}
      {connections && connections.length === 0 && <p>No tool connections yet.</p>}
      {connections && connections.length > 0 && (
        <div class="table-scroll" role="region" aria-label="Tool connections table" tabIndex={0}>
          <table data-testid="connections-table">
            <caption class="visually-hidden">Your tool connections and their health</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Connector</th>
                <th scope="col">Health</th>
                <th scope="col">Last checked</th>
                <th scope="col">Result</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {connections.map((connection) => (
                <ConnectionRow key={connection.id} connection={connection} onTested={load} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function ConnectionRow({ connection, onTested }: { connection: Connection; onTested: () => void }) {
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<TestResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const test = async () => {
    setTesting(true);
    setError(null);
    try {
      setResult(await api('post', '/v1/tools/connections/{id}/test', { params: { id: connection.id } }));
      onTested();
    } catch (caught) {
      setError(message(caught, 'The test did not run'));
    } finally {
      setTesting(false);
    }
  };
  const status = result?.status ?? connection.status;
  return (
    <tr>
      <td>{connection.name}</td>
      <td>
        <code>{connection.toolId}</code>
      </td>
      <td class={status === 'error' ? 'status-error' : 'status-approved'}>{status === 'connected' ? 'healthy' : 'failing'}</td>
      <td>{when(result?.lastTestedAt ?? connection.lastTestedAt)}</td>
      <td class="output" aria-live="polite">
        {error && <span class="error">{error}</span>}
        {result && `${result.testResult}${result.tools.length ? ` (${result.tools.length} tools)` : ''}`}
      </td>
      <td>
        <button type="button" onClick={test} disabled={testing}>
          {testing ? 'Testing…' : 'Test connection'}
        </button>
      </td>
    </tr>
  );
}
