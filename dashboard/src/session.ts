import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { graphql } from './graphql';
import type { ShellQuery } from './graphql/graphql';

export const ShellDocument = graphql(`
  query Shell {
    whoami {
      workspace { id name }
      user { id name email }
      auth { kind scope }
      workspaces { id name role }
    }
  }
`);

export type SessionInfo = ShellQuery['whoami'];

export const SessionContext = createContext<SessionInfo | undefined>(undefined);

/** Who is signed in and where: every signed-in page may read it. */
export function useSession(): SessionInfo {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

/** The signed-in user's role in the current workspace (owners and admins manage the team). */
export function useRole(): 'owner' | 'admin' | 'member' | undefined {
  const session = useSession();
  return session.workspaces.find((workspace) => workspace.id === session.workspace.id)?.role;
}
