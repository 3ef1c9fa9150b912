import type { NetworkGrant } from '../types.ts';
import type { HostContext } from './context.ts';
export function createHttp(_g: NetworkGrant, _c: HostContext): Record<string, object> { return {}; }
