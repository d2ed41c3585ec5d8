// Alerts (alerting API), ingestion pipe settings and organization API keys (cloud management API).
package alertpipe
