// @ts-check
// node --import ./worker/src/testing/register.mjs: resolves
// "cloudflare:workers" to the stand-in next to this file, so the Durable
// Object modules load in Node tests.
import { register } from "node:module";

register("./hooks.mjs", import.meta.url);
