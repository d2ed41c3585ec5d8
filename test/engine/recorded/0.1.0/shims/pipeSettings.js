"use strict";
// The serialized provider of this resource; see ../dynamic/shim.ts for why it is only this; it stays at this path because states hold require("pulumi-alertpipe/dist/provider/<kind>/shim.js").
const shim_1 = require("../dynamic/shim");
module.exports = (0, shim_1.shimFor)("pipeSettings");
//# sourceMappingURL=shim.js.map