"""One API key through pulumi-alertpipe from Python, with Pulumi's Automation API.

The program below is an inline program: it runs in this Python process, so `pulumi up` needs no
Python language host, only the `pulumi` CLI on PATH and the alertpipe plugin installed. What to
install once (docs/guides/other-languages.md#python says where each comes from):

    pulumi plugin install resource alertpipe 0.2.0 --file pulumi-resource-alertpipe-v0.2.0-linux-amd64.tar.gz
    python3 -m venv venv && venv/bin/pip install pulumi==3.248.0 pulumi_alertpipe-0.2.0-py3-none-any.whl

Then, against the emulator that came in the archive:

    "${PULUMI_HOME:-$HOME/.pulumi}/plugins/resource-alertpipe-v0.2.0/alertpipe-emulator" --pid-file emulator.pid &
    venv/bin/python stack.py up        # or: preview, destroy
    kill $(cat emulator.pid)

The connection comes from the ALERTPIPE_* variables, the emulator's address and published
credentials when a variable is unset. The state goes to PULUMI_BACKEND_URL, else to ./state (a
local file backend), encrypted with PULUMI_CONFIG_PASSPHRASE.
"""

import json
import os
import sys
from pathlib import Path

import pulumi
from pulumi import automation as auto

import pulumi_alertpipe as alertpipe

PROJECT = "alertpipe-python-example"
STACK = "dev"

# Each stack config key of the provider, its environment variable, its emulator default and whether it is a secret.
CONNECTION = {
    "alertpipe:alertingUrl": ("ALERTPIPE_ALERTING_URL", "http://127.0.0.1:4100", False),
    "alertpipe:alertingToken": ("ALERTPIPE_ALERTING_TOKEN", "emulator-token", True),
    "alertpipe:cloudUrl": ("ALERTPIPE_CLOUD_URL", "http://127.0.0.1:4100", False),
    "alertpipe:cloudKeyId": ("ALERTPIPE_CLOUD_KEY_ID", "emulator-key-id", False),
    "alertpipe:cloudKeySecret": ("ALERTPIPE_CLOUD_KEY_SECRET", "emulator-key-secret", True),
}


def program() -> None:
    key = alertpipe.ApiKey(
        "deployer",
        organization_id="0f8fad5b-d9cb-469f-a165-70867728950e",
        name="deployer",
        roles=[alertpipe.ApiKeyRole.DEVELOPER],
    )
    pulumi.export("keyId", key.key_id)
    pulumi.export("keySecret", key.key_secret)  # a secret: encrypted in the state, masked in output


def stack() -> auto.Stack:
    backend = os.environ.get("PULUMI_BACKEND_URL") or (Path.cwd() / "state").as_uri()
    if backend.startswith("file://"):
        Path(backend[len("file://") :]).mkdir(parents=True, exist_ok=True)
    # The passphrase encrypts the stack's secrets; this default is for trying it against the emulator only.
    os.environ.setdefault("PULUMI_CONFIG_PASSPHRASE", "alertpipe-example")
    settings = auto.ProjectSettings(name=PROJECT, runtime="python", backend=auto.ProjectBackend(url=backend))
    s = auto.create_or_select_stack(
        stack_name=STACK,
        project_name=PROJECT,
        program=program,
        opts=auto.LocalWorkspaceOptions(project_settings=settings, secrets_provider="passphrase"),
    )
    s.set_all_config(
        {
            key: auto.ConfigValue(value=os.environ.get(var, default), secret=secret)
            for key, (var, default, secret) in CONNECTION.items()
        }
    )
    return s


def main(command: str) -> None:
    s = stack()
    if command == "preview":
        s.preview(on_output=print)
        return
    if command == "up":
        result = s.up(on_output=print)
        outputs = {name: "[secret]" if o.secret else o.value for name, o in result.outputs.items()}
    elif command == "destroy":
        result = s.destroy(on_output=print)
        outputs = {}
    else:
        raise SystemExit(f"unknown command {command!r}: up, preview or destroy")
    # Last, one line of JSON for scripts: the result, the changes and the outputs, secrets masked.
    summary = {"result": result.summary.result, "changes": result.summary.resource_changes or {}, "outputs": outputs}
    print(json.dumps(summary))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: stack.py up|preview|destroy")
    main(sys.argv[1])
