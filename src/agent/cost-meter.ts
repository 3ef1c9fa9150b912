/** Running usage and cost of a run, a session and its sub-agents, with the budget check. */
import type { Usage } from '../providers/index.ts';
import { addUsage, ZERO_USAGE } from '../providers/index.ts';

/**
 * Running usage and cost, chained upwards: what a sub-agent spends is added
 * to its parent's meter as it is spent, so the parent's totals include its
 * children and a budget set on the parent stops the whole tree — including
 * background agents still working when the limit is reached.
 */
export class CostMeter {
  private total: Usage = ZERO_USAGE;
  private spent = 0;

  constructor(
    /** Stop once this much is spent (undefined: no limit of its own). */
    private readonly limitUsd?: number,
    private readonly parent?: CostMeter,
    /** Spent before this process (a resumed session); not passed up, the parent counted it then. */
    initial?: { usage: Usage; costUsd: number },
  ) {
    if (initial) {
      this.total = initial.usage;
      this.spent = initial.costUsd;
    }
  }

  add(usage: Usage, costUsd: number): void {
    this.total = addUsage(this.total, usage);
    this.spent += costUsd;
    this.parent?.add(usage, costUsd);
  }

  get usage(): Usage {
    return this.total;
  }

  get costUsd(): number {
    return this.spent;
  }

  /** This meter's limit or any ancestor's is reached. */
  exhausted(): boolean {
    if (this.limitUsd !== undefined && this.spent >= this.limitUsd) return true;
    return this.parent?.exhausted() ?? false;
  }
}
