/** `moat sessions list|show|export|rm`. */
import { moatPaths, sessionResultsDir } from '../config/index.ts';
import { rmSync } from 'node:fs';
import { exportSessionJson, exportSessionMarkdown, openStore, type Store } from '../store/index.ts';
import { projectCheckpoints } from '../checkpoints/index.ts';
import { EXIT } from './exit-codes.ts';
import { out } from './write-out.ts';
import { formatAge } from '../util/index.ts';

function withStore<T>(fn: (store: Store) => T): T {
  const store = openStore(moatPaths(process.env).dbFile);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}


export const sessionsCommands = {
  async sessionsList(opts: { all?: boolean; cwd?: string }): Promise<number> {
    const cwd = opts.cwd ?? process.cwd();
    const rows = withStore((s) => s.sessions.list(opts.all ? { all: true } : { cwd }));
    if (rows.length === 0) {
      out(opts.all ? 'no sessions yet\n' : `no sessions in ${cwd} (moat sessions list --all shows every folder)\n`);
      return EXIT.ok;
    }
    for (const r of rows) {
      const title = (r.title ?? r.firstPrompt ?? '').replace(/\s+/g, ' ').slice(0, 60);
      const where = opts.all ? `  ${r.cwd}` : '';
      out(`${r.id}  ${formatAge(r.updatedAt).padStart(8)}  ${String(r.messageCount).padStart(4)} msgs  ${title}${where}\n`);
    }
    return EXIT.ok;
  },

  async sessionsShow(id: string): Promise<number> {
    out(
      withStore((s) => {
        const full = s.sessions.resolvePrefix(id);
        const row = s.sessions.require(full);
        const branches = s.checkpoints.branches(full).map((b) => `- rewound at message ${b.atSeq}: the old branch is session ${b.id} (last active ${formatAge(b.lastActive)})`);
        const links = [...(row.branchOf === null ? [] : [`This is a saved branch of session ${row.branchOf}, rewound at message ${row.branchAtSeq ?? '?'}.`]), ...(branches.length > 0 ? ['Saved branches (conversation rewinds):', ...branches] : [])];
        return exportSessionMarkdown(s, full) + (links.length > 0 ? `\n${links.join('\n')}\n` : '');
      }),
    );
    return EXIT.ok;
  },

  async sessionsExport(id: string, opts: { format: 'json' | 'markdown' }): Promise<number> {
    const text = withStore((s) => {
      const full = s.sessions.resolvePrefix(id);
      return opts.format === 'json' ? exportSessionJson(s, full) : exportSessionMarkdown(s, full);
    });
    out(text.endsWith('\n') ? text : `${text}\n`);
    return EXIT.ok;
  },

  async sessionsRm(id: string): Promise<number> {
    const store = openStore(moatPaths(process.env).dbFile);
    let removed: string | undefined;
    try {
      const full = store.sessions.resolvePrefix(id);
      // Its checkpoints' projects are read before the rows go (they cascade with the session).
      const projects = store.checkpoints.projectsOf(full);
      removed = store.sessions.remove(full) ? full : undefined;
      for (const p of removed ? projects : []) await projectCheckpoints(store, p, moatPaths(process.env).dataDir)?.forget(full);
      // The tool output saved for it (results too big for the model) goes with it.
      if (removed) rmSync(sessionResultsDir(moatPaths(process.env).toolResultsDir, full), { recursive: true, force: true });
    } finally {
      store.close();
    }
    out(removed ? `removed session ${removed}\n` : `no session ${id}\n`);
    return removed ? EXIT.ok : EXIT.usage;
  },
};
