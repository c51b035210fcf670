"""Transforms template.yaml with aws-sam-translator, as CloudFormation's AWS::Serverless transform
does after `sam package`: local CodeUri folders become S3 locations first. Prints JSON:
{"transformed": <template>, "packagedBytes": <size of the packaged template as sam package writes it>}.
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


def packaged(template):
    """What `sam package` uploads in place of each local CodeUri: s3://<bucket>/<md5>."""
    functions = [r for r in template["Resources"].values() if r.get("Type") == "AWS::Serverless::Function"]
    for i, res in enumerate(functions):
        res.setdefault("Properties", {})["CodeUri"] = f"s3://aws-sam-cli-managed-default-samclisourcebucket/{i:032x}"
    return template


def main(path):
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")  # ARNs only; no AWS call is made
    with open(path, encoding="utf-8") as handle:
        template = packaged(yaml_parse(handle.read()))
    size = len(yaml.safe_dump(template, default_flow_style=False, sort_keys=False).encode("utf-8"))
    result = transform(template, {"AWS::Region": "us-east-1", "AWS::Partition": "aws"}, NoManagedPolicies())
    json.dump({"transformed": result, "packagedBytes": size}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "template.yaml")
