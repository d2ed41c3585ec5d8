// The dynamic provider's methods, at the path existing states `require`: an adapter over the behaviour.
import { dynamicProvider } from "../dynamic/provider";
import { behaviour } from "./behaviour";

const provider = dynamicProvider(behaviour);
export const { configure, check, diff, create, read, update } = provider;
const del = provider.delete;
export { del as delete };
