/**
 * zod without its JIT: zod 4 compiles an object schema into a function (`new Function`) on its first parse. A Lambda
 * parses each schema a handful of times per container, so the compile costs more than it ever saves on a cold
 * start (docs/explanation/benchmarks.md). Imported by every schema module before any schema is used.
 */
import * as z from 'zod';

z.config({ jitless: true });
