// The serialized provider of this resource; see ../dynamic/shim.ts for why it is only this; it stays at this path because states hold require("pulumi-alertpipe/dist/provider/<kind>/shim.js").
import { shimFor } from "../dynamic/shim";

export = shimFor("clickPipe");
