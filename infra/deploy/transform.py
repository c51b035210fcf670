"""Transforms template.yaml with aws-sam-translator, as CloudFormation's AWS::Serverless transform
does after `sam package`: local CodeUri folders and local nested application templates (Location)
become S3 locations first. Prints JSON:
{"transformed": <template>, "packagedBytes": <size of the packaged template as sam package writes it>,
 "nested": {<application id>: {"path", "template" (its own template, transformed if it is SAM),
            "resources", "parameters", "outputs", "packagedBytes"}}}.
Needs Python with aws-sam-translator (and PyYAML, which it depends on)."""
import json
import os
import sys

import yaml
from samtranslator.translator.transform import transform
from samtranslator.yaml_helper import yaml_parse


class NoManagedPolicies:
    """The template names managed policies by ARN only; nothing to look up in IAM."""

    def load(self):
        return {}


BUCKET = "aws-sam-cli-managed-default-samclisourcebucket"
PARAMETERS = {"AWS::Region": "us-east-1", "AWS::Partition": "aws"}


def packaged(template, base_dir):
    """What `sam package` uploads in place of each local CodeUri (s3://<bucket>/<md5>) and of each
    nested application's local Location (https://s3.<region>.amazonaws.com/<bucket>/<md5>.template).
    Returns the nested applications' local templates: {logical id: path}."""
    nested = {}
    for i, (rid, res) in enumerate(template["Resources"].items()):
        props = res.setdefault("Properties", {})
        if res.get("Type") == "AWS::Serverless::Function":
            props["CodeUri"] = f"s3://{BUCKET}/{i:032x}"
        location = props.get("Location") if res.get("Type") == "AWS::Serverless::Application" else None
        if isinstance(location, str) and "://" not in location:
            nested[rid] = os.path.join(base_dir, location)
            props["Location"] = f"https://s3.us-east-1.amazonaws.com/{BUCKET}/{i:032x}.template"
    return nested


def load(path):
    """The template as `sam package` uploads it (local paths replaced), its nested templates, its size."""
    with open(path, encoding="utf-8") as handle:
        template = yaml_parse(handle.read())
    nested = packaged(template, os.path.dirname(os.path.abspath(path)))
    size = len(yaml.safe_dump(template, default_flow_style=False, sort_keys=False).encode("utf-8"))
    return template, nested, size


def transformed(template):
    if "Transform" not in template:
        return template
    return transform(template, PARAMETERS, NoManagedPolicies())


def main(path):
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")  # ARNs only; no AWS call is made
    template, nested_paths, size = load(path)
    result = transformed(template)
    nested = {}
    for rid, nested_path in nested_paths.items():
        child, grandchildren, child_size = load(nested_path)
        if grandchildren:
            raise SystemExit(f"{nested_path}: nested applications two levels deep are not counted")
        child = transformed(child)
        nested[rid] = {
            "path": os.path.relpath(nested_path, os.path.dirname(os.path.abspath(path))),
            "template": child,
            "resources": len(child["Resources"]),
            "parameters": len(child.get("Parameters", {})),
            "outputs": len(child.get("Outputs", {})),
            "packagedBytes": child_size,
        }
    json.dump({"transformed": result, "packagedBytes": size, "nested": nested}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "template.yaml")
