import { execute } from '../../api/graphql-client';
import { useAction } from '../../api/use-query';
import { graphql } from '../../graphql';
import type { TeamPageQuery } from '../../graphql/graphql';
import { DataTable } from '../../ui/data-table';
import { date } from '../../ui/format';
import { RelativeTime } from '../../ui/relative-time';
import { ErrorNotice } from '../../ui/notice';
import { Section } from '../../ui/page';

const RevokeConnectedAppDocument = graphql(`
  mutation RevokeConnectedApp($id: ID!) {
    revokeConnectedApp(id: $id) { id }
  }
`);

/** Applications people let act on the workspace through OAuth (spec 5): who connected them, and a way to cut them off at once. */
export function ConnectedAppsSection({ apps, canManage, myUserId, onChanged }: { apps: TeamPageQuery['connectedApps']; canManage: boolean; myUserId?: string; onChanged(): void }) {
  const revoke = useAction(async (id: string, name: string) => {
    if (!confirm(`Disconnect “${name}”? Its tokens stop working at once.`)) return;
    await execute(RevokeConnectedAppDocument, { id });
    onChanged();
  });
  return (
    <Section title="Connected apps">
      {apps.length === 0 ? (
        <p class="hint">No application acts for anyone in this workspace. Tools such as AI assistants connect through OAuth at /mcp.</p>
      ) : (
        <DataTable label="Connected apps" columns={['Application', 'Acts for', 'Access', 'Connected', 'Last used', 'Disconnect']}>
          {apps.map((app) => {
            const name = app.clientName ?? app.clientId;
            return (
              <tr key={app.id}>
                <th scope="row">
                  {name}
                  {app.clientUri && <div class="muted">{app.clientUri}</div>}
                </th>
                <td>{app.user.email}</td>
                <td>{app.scope === 'read' ? 'Read only' : 'Read and write'}</td>
                <td>{date(app.connectedAt)}</td>
                <td>{app.lastUsedAt ? <RelativeTime iso={app.lastUsedAt} /> : 'never'}</td>
                <td>
                  {(canManage || app.user.id === myUserId) && (
                    <button type="button" class="danger" disabled={revoke.busy} onClick={() => void revoke.run(app.id, name)}>
                      Disconnect<span class="visually-hidden"> {name}</span>
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      <ErrorNotice error={revoke.error} />
    </Section>
  );
}
