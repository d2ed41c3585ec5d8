// The SavedSearch class that programs instantiate; its argument and output types are its definition's.

import * as pulumi from "@pulumi/pulumi";
import { SAVED_SEARCH } from "../savedSearch/definition";
import type { SavedSearchArgs, SavedSearchOutputs } from "./generated";
import { constructorProps } from "./resource";
import shim = require("../savedSearch/shim");

export interface SavedSearch extends SavedSearchOutputs {}

/**
 * A saved search of the alerting API: what a search alert watches. Its delete is refused while
 * alerts outside the stack watch it, since the service would delete them with it.
 */
export class SavedSearch extends pulumi.dynamic.Resource {
  constructor(name: string, args: SavedSearchArgs, opts?: pulumi.CustomResourceOptions) {
    const made = constructorProps(SAVED_SEARCH, args, opts);
    super(shim, name, made.props, made.opts, "alertpipe", "SavedSearch");
  }

  /** An existing saved search, read by its id and never created, changed or deleted by this stack. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): SavedSearch {
    return new SavedSearch(name, {} as SavedSearchArgs, { ...opts, id });
  }
}
