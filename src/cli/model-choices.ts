/** The models a front end offers: /model's list in the TUI and `initialize`'s `models` for SDK programs. */
import type { ModelRouter } from '../providers/index.ts';

/** Claude models by their bare names (what `--model` and Claude Code take). */
export const CLAUDE_MODELS = ['claude-sonnet-4-5', 'claude-opus-4-5', 'claude-haiku-4-5', 'claude-opus-4-1', 'claude-sonnet-4'];

/** Claude models by their bare names first, then every catalogued and configured model as `provider/model`. */
export function modelChoices(router: ModelRouter): string[] {
  const others = router.catalog
    .list()
    .filter((m) => m.provider !== 'anthropic' && router.providers[m.provider] !== undefined)
    .map((m) => `${m.provider}/${m.id}`);
  return [...CLAUDE_MODELS, ...others];
}

/** The SDK's `ModelInfo` (`supportedModels()`): each choice with what the router knows of it. */
export function modelInfos(router: ModelRouter): { value: string; displayName: string; description: string }[] {
  return modelChoices(router).map((value) => {
    const info = router.info(value);
    const window = `${Math.round(info.contextWindow / 1000)}k context`;
    return { value, displayName: value, description: `${info.provider}: ${window}${info.capabilities.reasoning ? ', reasoning' : ''}` };
  });
}
