/**
 * MCP servers' questions waiting for the user: one form on screen at a time,
 * the others queued in the order they came. A form opens only while no
 * permission dialog is up, and once open it keeps the keyboard until it is
 * answered, so the two never take each other's keys. A question its server
 * withdraws (cancelled, timed out) leaves the queue or the screen at once.
 */
import type { ElicitationAnswer, ElicitationRequest } from '../views.ts';
import { openForm, type ElicitationForm } from './elicitation-form.ts';
import { createStore, type Store } from './store.ts';

interface Pending {
  request: ElicitationRequest;
  signal: AbortSignal;
  resolve(answer: ElicitationAnswer): void;
  withdraw(): void;
}

export interface ElicitationsOptions {
  /** True while something else holds the keyboard (a permission dialog): the next form waits. */
  blocked(): boolean;
  /** A question the server withdrew before the user answered it. */
  onWithdrawn(server: string): void;
}

const CANCEL: ElicitationAnswer = { action: 'cancel' };

/** What the screen shows: the open form, and how many questions wait behind it. */
export interface ElicitationScreen {
  form: ElicitationForm;
  waiting: number;
}

export class Elicitations {
  /** The form on screen; undefined when none is. */
  readonly screen: Store<ElicitationScreen | undefined> = createStore<ElicitationScreen | undefined>(undefined);
  private current: Pending | undefined;
  private readonly waiting: Pending[] = [];

  constructor(private readonly opts: ElicitationsOptions) {}

  /** Queues a question; settles with the user's answer, or `cancel` if the server withdraws it first. */
  ask(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    if (signal.aborted) return Promise.resolve(CANCEL);
    return new Promise((resolve) => {
      const pending: Pending = {
        request,
        signal,
        resolve,
        withdraw: () => {
          this.remove(pending);
          resolve(CANCEL);
          this.opts.onWithdrawn(request.server);
        },
      };
      signal.addEventListener('abort', pending.withdraw, { once: true });
      this.waiting.push(pending);
      this.advance();
      this.recount();
    });
  }

  /** The form on screen, if any. */
  form(): ElicitationForm | undefined {
    return this.screen.get()?.form;
  }

  /** Opens the next question, unless one is on screen or something else holds the keyboard. */
  advance(): void {
    if (this.current !== undefined || this.waiting.length === 0 || this.opts.blocked()) return;
    const next = this.waiting.shift();
    if (next === undefined) return;
    this.current = next;
    this.screen.set({ form: openForm(next.request), waiting: this.waiting.length });
  }

  /** The form on screen changed (typing, moving, a refused submit). */
  update(change: (form: ElicitationForm) => ElicitationForm): void {
    const shown = this.screen.get();
    if (shown !== undefined) this.screen.set({ ...shown, form: change(shown.form) });
  }

  /** The user's answer to the form on screen; the next question, if any, opens. */
  answer(answer: ElicitationAnswer): void {
    const pending = this.current;
    if (pending === undefined) return;
    this.remove(pending);
    pending.resolve(answer);
  }

  /** Every question, on screen or waiting, answered `cancel` (the turn interrupted, moat leaving). */
  cancelAll(): void {
    for (const pending of [this.current, ...this.waiting]) {
      if (pending === undefined) continue;
      this.remove(pending);
      pending.resolve(CANCEL);
    }
  }

  private remove(pending: Pending): void {
    pending.signal.removeEventListener('abort', pending.withdraw);
    const i = this.waiting.indexOf(pending);
    if (i >= 0) this.waiting.splice(i, 1);
    if (this.current === pending) {
      this.current = undefined;
      this.screen.set(undefined);
      this.advance();
    }
    this.recount();
  }

  /** The "more waiting" count on screen follows the queue. */
  private recount(): void {
    const shown = this.screen.get();
    if (shown !== undefined && shown.waiting !== this.waiting.length) this.screen.set({ ...shown, waiting: this.waiting.length });
  }
}
