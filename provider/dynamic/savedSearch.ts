import * as pulumi from "@pulumi/pulumi";
import { SAVED_SEARCH } from "../savedSearch/definition";
import type { SavedSearchArgs, SavedSearchOutputs } from "./generated";
import { ReadByIdResource } from "./resource";
import shim = require("../savedSearch/shim");

export interface SavedSearch extends SavedSearchOutputs {}

/**
 * A saved search of the alerting API: what a search alert watches. Its delete is refused while
 * alerts outside the stack watch it, since the service would delete them with it.
 */
export class SavedSearch extends ReadByIdResource {
  constructor(name: string, args: SavedSearchArgs, opts?: pulumi.CustomResourceOptions) {
    super({ def: SAVED_SEARCH, shim, type: "SavedSearch" }, name, args, opts);
  }
}
