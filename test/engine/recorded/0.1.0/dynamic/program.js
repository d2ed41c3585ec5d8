// The upgrade program of the dynamic classes (issue 25), kept with the recording it made: the three
// resources with keepers, ipAccessList, resetOnDelete and both alert sources, and two keys, one plain
// and one with keepers. It takes the package as its argument, so the test runs it with the package the
// tree builds now, installed as a user's is. The search alert's threshold is config `lagThreshold`.
"use strict";
const pulumi = require("@pulumi/pulumi");

const organizationId = "0f8fad5b-d9cb-469f-a165-70867728950e";

/** @param {typeof import("pulumi-alertpipe")} alertpipe */
module.exports = (alertpipe) => async () => {
  const { Alert, ApiKey, PipeSettings } = alertpipe;
  const config = new pulumi.Config();
  new PipeSettings("ingest", {
    organizationId,
    serviceId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
    pipeId: "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed",
    dbMaxThreads: 8,
    objectStorageConcurrency: 4,
    resetOnDelete: true,
  });
  const reader = new ApiKey("reader", {
    organizationId,
    name: "reader",
    roles: ["query_endpoints"],
    ipAccessList: [
      { source: "127.0.0.1/32", description: "this machine" },
      { source: "10.0.0.0/8", description: "office" },
    ],
  });
  const deployer = new ApiKey("deployer", {
    organizationId,
    name: "deployer",
    roles: ["developer"],
    keepers: { quarter: "2026-Q1" },
  });
  const lag = new Alert("ingest-lag", {
    name: "Ingest lag",
    message: pulumi.interpolate`Ingest lag (deploy key ending ${deployer.keySuffix})`,
    source: "search",
    threshold: config.getNumber("lagThreshold") ?? 300,
    thresholdType: "above",
    interval: "5m",
    channel: { type: "webhook", webhookId: "ops-oncall" },
  });
  const cpu = new Alert("cpu", {
    name: "High CPU",
    source: "tile",
    dashboardId: "dash-ops",
    tileId: "tile-cpu",
    threshold: 90,
    thresholdType: "above",
    interval: "15m",
    channel: { type: "webhook", webhookId: "ops-oncall" },
  });
  return {
    readerKeyId: reader.keyId,
    readerKeySecret: reader.keySecret,
    deployerKeyId: deployer.keyId,
    deployerKeySecret: deployer.keySecret,
    lagAlertId: lag.id,
    cpuAlertId: cpu.id,
  };
};
