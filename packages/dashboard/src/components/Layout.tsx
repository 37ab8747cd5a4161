import type { ReactNode } from 'react';
import { Link, useRoute } from 'wouter';
import { useSession } from '../session';

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const [active] = useRoute(`${href}/*?`);
  return (
    <Link href={href} className={active ? 'active' : undefined} aria-current={active ? 'page' : undefined}>
      {children}
    </Link>
  );
}

/** The signed-in frame: navigation, who is signed in (team and role), sign out. */
export function Layout({ children }: { children: ReactNode }) {
  const { current, isAdmin, signOut } = useSession();
  return (
    <>
      <header className="topbar">
        <Link href="/runs" className="brand">
          Agent Runs
        </Link>
        <nav aria-label="Main">
          <NavLink href="/runs">Runs</NavLink>
          <NavLink href="/factories">Factories</NavLink>
          <NavLink href="/schedules">Schedules</NavLink>
          <NavLink href="/environments">Environments</NavLink>
          <NavLink href="/notifications">Notifications</NavLink>
          <NavLink href="/usage">Usage</NavLink>
          {isAdmin && <NavLink href="/secrets">Secrets</NavLink>}
          {isAdmin && <NavLink href="/api-keys">API keys</NavLink>}
          {isAdmin && <NavLink href="/audit">Audit log</NavLink>}
        </nav>
        <div className="whoami" aria-label="Signed in as">
          <span className="team">{current.team.name}</span>
          <span className={`badge role-${current.key.role}`}>{current.key.role}</span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main>{children}</main>
    </>
  );
}

/** The page heading and its actions on one line (wrapping on narrow screens). */
export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children && <div className="actions">{children}</div>}
    </div>
  );
}
