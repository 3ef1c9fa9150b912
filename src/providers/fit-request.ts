/**
 * The neutral request as one model can take it: its own id, its output cap, thinking only where it reasons,
 * images only where it sees, tools only where it calls them. Pure. What is left out of this request stays in
 * the history, so a later switch to a model that takes it sends it again (as OpenCode does).
 */
import type { ModelInfo } from './catalog.ts';
import type { AssistantPart, ImagePart, Message, TextPart, UserPart } from './messages.ts';
import type { ProviderRequest } from './types.ts';

/** The smallest thinking budget the APIs take. */
const MIN_THINKING = 1024;

export interface FitOptions {
  /** The model as the user named it (`ollama/qwen3-coder`), for placeholders. */
  label: string;
  /** Send each image as a placeholder: the model's entry says it takes none, or its server refused them. */
  noImages: boolean;
}

export interface Fitted {
  request: ProviderRequest;
  /** What this request had that the model does not take (the router tells the user once). */
  omitted: ('images' | 'tools')[];
}

export function fitRequest(request: ProviderRequest, model: string, info: ModelInfo, o: FitOptions = defaults(model, info)): Fitted {
  const maxTokens = Math.min(request.maxTokens, info.maxOutput);
  const fitted: ProviderRequest = { ...request, model, maxTokens };
  delete fitted.thinkingBudget;
  if (request.thinkingBudget !== undefined && info.capabilities.reasoning) {
    // Anthropic refuses a budget that does not leave room for the answer.
    const budget = Math.min(request.thinkingBudget, maxTokens - MIN_THINKING);
    if (budget >= MIN_THINKING) fitted.thinkingBudget = budget;
  }
  const omitted: Fitted['omitted'] = [];
  if (o.noImages && hasImages(request.messages)) {
    omitted.push('images');
    fitted.messages = withoutImages(fitted.messages, `[image omitted: ${o.label} does not accept images]`);
  }
  if (!info.capabilities.tools && (request.tools.length > 0 || hasToolParts(request.messages))) {
    omitted.push('tools');
    fitted.tools = [];
    // Calls in the history go as text: APIs refuse tool blocks in a request that declares no tools.
    fitted.messages = toolsAsText(fitted.messages);
  }
  return { request: fitted, omitted };
}

/** Images go as a placeholder to a model the catalogue or config describes without them; unknown models get them. */
function defaults(model: string, info: ModelInfo): FitOptions {
  return { label: model, noImages: info.known && !info.capabilities.images };
}

export function hasImages(messages: readonly Message[]): boolean {
  return messages.some((m) => m.content.some((p) => p.type === 'image' || (p.type === 'tool_result' && p.content.some((c) => c.type === 'image'))));
}

function withoutImages(messages: Message[], placeholder: string): Message[] {
  const swap = <P extends TextPart | ImagePart>(p: P): P | TextPart => (p.type === 'image' ? { type: 'text', text: placeholder } : p);
  return messages.map((m): Message => {
    if (m.role === 'assistant') return m;
    const content = m.content.map((p): UserPart => (p.type === 'tool_result' ? { ...p, content: p.content.map(swap) } : swap(p)));
    return { role: 'user', content };
  });
}

function hasToolParts(messages: readonly Message[]): boolean {
  return messages.some((m) => m.content.some((p) => p.type === 'tool_use' || p.type === 'tool_result'));
}

function toolsAsText(messages: Message[]): Message[] {
  const names = new Map<string, string>();
  return messages.map((m): Message => {
    if (m.role === 'assistant') {
      const content = m.content.map((p): AssistantPart => {
        if (p.type !== 'tool_use') return p;
        names.set(p.id, p.name);
        return { type: 'text', text: `[called ${p.name} with ${JSON.stringify(p.input ?? {})}]` };
      });
      return { role: 'assistant', content };
    }
    const content = m.content.flatMap((p): UserPart[] => {
      if (p.type !== 'tool_result') return [p];
      const head = `[${p.isError ? 'error from' : 'result of'} ${names.get(p.toolUseId) ?? 'a tool'}]`;
      return [{ type: 'text', text: head }, ...p.content];
    });
    return { role: 'user', content };
  });
}
