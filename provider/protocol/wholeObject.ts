// What a resource shares whose every argument is sent in each write and a PUT replaces the whole
// object (Webhook, SavedSearch): every argument is managed, an omitted one is its compared form's
// default, and what the service never returns (write-only) is kept as the program set it.

import { comparedForm, fromWire, namesWith, outputNames, outputRules, type ResourceDefinition } from "./definition";
import { deepEqual, diffProperties, type Diff } from "./diff";
import { outputsFrom } from "./outputRules";
import { previewOutputs } from "./preview";
import { pick, type PropertyMap } from "./properties";

export interface WholeObject {
  /** The arguments, all managed, in the definition's order. */
  readonly args: readonly string[];
  /** Outputs after a write (`kept`: the program's arguments) or a read (`kept`: the stored outputs). */
  outputs(answer: Readonly<Record<string, unknown>> | undefined, kept: PropertyMap, stored: PropertyMap): PropertyMap;
  /** The live values of the arguments a read reports as inputs: neither write-only nor at their default. */
  inputs(outputs: PropertyMap): PropertyMap;
  diff(olds: PropertyMap, news: PropertyMap): Diff;
  previewCreate(args: PropertyMap): PropertyMap;
  previewUpdate(olds: PropertyMap, news: PropertyMap): PropertyMap;
}

/** `writeOnly(name, values)`: whether the service never returns the argument, for an object of these values. */
export function wholeObject(
  def: ResourceDefinition,
  writeOnly: (name: string, values: PropertyMap) => boolean,
): WholeObject {
  const outputs = outputNames(def);
  const args = outputs.filter((n) => def.properties[n]?.role === "both");
  const serviceOutputs = outputs.filter((n) => !args.includes(n));
  const stable = namesWith(def, "stable");
  const rules = outputRules(def);
  const compared = comparedForm(def);
  return {
    args,
    outputs(answer, kept, stored) {
      // An empty 2xx tells nothing new: what was kept and stored stands.
      if (answer === undefined) return { ...pick(stored, serviceOutputs), ...pick(kept, args) };
      const out: PropertyMap = outputsFrom(rules, outputs, fromWire(def, answer, "drop"), { program: kept, stored });
      for (const n of args) {
        if (!writeOnly(n, kept)) continue;
        if (kept[n] === undefined || kept[n] === null) delete out[n];
        else out[n] = kept[n];
      }
      return out;
    },
    inputs(outs) {
      return pick(
        outs,
        args.filter((n) => !writeOnly(n, outs) && !deepEqual(compared(n, outs[n]), compared(n, undefined))),
      );
    },
    diff: (olds, news) => diffProperties(olds, news, args, namesWith(def, "replaces"), compared, stable),
    previewCreate: (a) => previewOutputs(pick(a, args), serviceOutputs),
    previewUpdate: (olds, news) => previewOutputs({ ...pick(olds, stable), ...pick(news, args) }, serviceOutputs),
  };
}
