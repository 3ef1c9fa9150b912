/**
 * zod compiles each object schema into a specialised parser (`new Function`)
 * the first time it parses with it. moat parses most schemas once or a few
 * times per process (config files, settings, skill and agent files, tool
 * inputs), so compiling costs more than it saves: about 5 ms of start-up.
 * The switch is read when a schema is built, so this module is imported
 * before any that builds one.
 */
import { z } from 'zod';

z.config({ jitless: true });
