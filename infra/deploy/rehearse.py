"""The deploy rehearsal: what CloudFormation receives, checked as AWS would check it at create time.

template.yaml is packaged and transformed as `sam package` and the AWS::Serverless transform do
(transform.py), then:
  1. checks of what AWS enforces that no local run sees (`checks`): every Ref, GetAtt and Sub
     variable resolvable; no parent path with two different variable children; every method of a
     REST API and every WebSocket route integrated with a function that a Lambda permission lets
     that API invoke (and no permission that matches nothing); each function's resource policy
     under Lambda's 20 KB with room for more routes at the longest stack name; explicit names
     within their limits;
  2. the whole stack created in moto's CloudFormation (`rehearse`), nested stacks included, with
     every REST API's definition imported as CloudFormation imports a RestApi's Body, each API's
     deployment and stage created, and its resources and methods read back; the WebSocket API's
     routes and integrations created through the API Gateway V2 API; each function's environment
     (under 4 KB) and each role's inline policies (under 10,240 characters) as created.
Prints one JSON report; "problems" lists every failure (empty: the rehearsal passed).
Needs Python with aws-sam-translator and moto (5.2.1); makes no network call (moto runs in process).
Usage: python3 infra/deploy/rehearse.py [template.yaml] [--stack-name NAME]"""
import ast
import fnmatch
import io
import json
import os
import re
import secrets
import sys
import warnings
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import transform as sam  # noqa: E402

REGION = "us-east-1"
ACCOUNT = "123456789012"
STAGE_DEFAULT = "live"
HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
# AWS's limits at create time (docs/deploy.md, "What the rehearsal proves").
ENV_BYTES = 4096
ROLE_POLICY_CHARS = 10240
RESOURCE_POLICY_BYTES = 20480
RESOURCE_POLICY_ROOM = 10  # statements a function's policy must still have room for
LONGEST_STACK_NAME = 128
NAME_LIMITS = {"FunctionName": 64, "RoleName": 64, "LogGroupName": 512}
PSEUDO = {"AWS::Region", "AWS::AccountId", "AWS::Partition", "AWS::StackName", "AWS::StackId",
          "AWS::URLSuffix", "AWS::NoValue", "AWS::NotificationARNs"}


def sub_parts(value):
    """A Fn::Sub's string and its own variables."""
    if isinstance(value, list):
        return value[0], value[1] if len(value) > 1 else {}
    return value, {}


def walk(node, visit):
    visit(node)
    if isinstance(node, dict):
        for v in node.values():
            walk(v, visit)
    elif isinstance(node, list):
        for v in node:
            walk(v, visit)


def unresolvable(template, name):
    """Every Ref, Fn::GetAtt and Fn::Sub variable that names nothing in this template."""
    resources = template.get("Resources", {})
    known = set(resources) | set(template.get("Parameters", {})) | PSEUDO
    found = []

    def check(target, where):
        head = target.split(".")[0]
        if target in known or head in resources:
            return
        found.append(f"{name}: {where} names {target}, which is no resource, parameter or pseudo parameter")

    def visit(node):
        if not isinstance(node, dict):
            return
        if isinstance(node.get("Ref"), str):
            check(node["Ref"], "Ref")
        if "Fn::GetAtt" in node:
            att = node["Fn::GetAtt"]
            target = att[0] if isinstance(att, list) else att.split(".")[0]
            if target not in resources:
                found.append(f"{name}: Fn::GetAtt names {target}, which is no resource")
            elif isinstance(att, list) and len(att) > 2 and att[1] == "Outputs":
                outputs = nested_outputs.get(target)
                if outputs is not None and att[2] not in outputs:
                    found.append(f"{name}: Fn::GetAtt {'.'.join(att)}: the nested stack has no such output")
        if "Fn::Sub" in node:
            text, variables = sub_parts(node["Fn::Sub"])
            for var in re.findall(r"\$\{([^}!][^}]*)\}", text if isinstance(text, str) else ""):
                if var not in variables:
                    check(var, "Fn::Sub")

    nested_outputs = {}
    for rid, res in resources.items():
        if res.get("Type") == "AWS::CloudFormation::Stack" and rid in NESTED_OUTPUTS:
            nested_outputs[rid] = NESTED_OUTPUTS[rid]
    walk(resources, visit)
    walk(template.get("Outputs", {}), visit)
    return found


NESTED_OUTPUTS = {}


def integrations(body):
    """(path, method, function logical id or None, integration type) of a REST API definition."""
    out = []
    for path, operations in body.get("paths", {}).items():
        for method, op in operations.items():
            integration = op.get("x-amazon-apigateway-integration", {}) if isinstance(op, dict) else {}
            fn = re.search(r"\$\{(\w+)\.Arn\}", json.dumps(integration.get("uri", "")))
            name = "ANY" if method == "x-amazon-apigateway-any-method" else method.upper()
            out.append((path, name, fn.group(1) if fn else None, integration.get("type")))
    return out


def variable_siblings(api_id, body):
    """Parents with two different variable children: API Gateway refuses the import."""
    children = {}
    for path in body.get("paths", {}):
        parts = [p for p in path.split("/") if p]
        for i, part in enumerate(parts):
            if part.startswith("{"):
                children.setdefault("/" + "/".join(parts[:i]), set()).add(part)
    return [f"{api_id}: {parent or '/'} has variable children {sorted(v)}: API Gateway allows one"
            for parent, v in children.items() if len(v) > 1]


def source_arn_pattern(permission, stage):
    text, variables = sub_parts(permission["Properties"]["SourceArn"].get("Fn::Sub", ""))
    values = {"AWS::Region": REGION, "AWS::AccountId": ACCOUNT, "AWS::Partition": "aws"}
    api = None
    for key, v in variables.items():
        if isinstance(v, dict) and "Ref" in v:
            values[key] = f"<{v['Ref']}>"
            api = v["Ref"]
        elif isinstance(v, str):
            values[key] = v
    for ref in re.findall(r"\$\{(\w+)\}", text):
        if ref not in values:
            values[ref] = f"<{ref}>"
            api = api or ref
    pattern = re.sub(r"\$\{([\w:]+)\}", lambda m: values.get(m.group(1), m.group(0)), text)
    return api, pattern.replace("${__Stage__}", stage)


def invoke_arn(api, stage, method, path):
    concrete = re.sub(r"\{[^}]+\}", "x", path).lstrip("/")
    return f"arn:aws:execute-api:{REGION}:{ACCOUNT}:<{api}>/{stage}/{method}/{concrete}"


def policy_statement(stack, permission_id, function_id, source_arn):
    """The statement Lambda stores for an AWS::Lambda::Permission, at its longest physical names."""
    return {
        "Sid": f"{stack}-{permission_id}-ABCDEFGHIJKL"[:100],
        "Effect": "Allow",
        "Principal": {"Service": "apigateway.amazonaws.com"},
        "Action": "lambda:InvokeFunction",
        "Resource": f"arn:aws:lambda:ap-southeast-5:{ACCOUNT}:function:" + f"{stack}-{function_id}-ABCDEFGHIJKL"[:64],
        "Condition": {"ArnLike": {"AWS:SourceArn": source_arn.replace(f"<{function_id}>", "a1b2c3d4e5")}},
    }


def checks(root, nested):
    problems = []
    figures = {"restApis": {}, "resourcePolicies": {}, "webSocket": {}}
    for rid, child in nested.items():
        NESTED_OUTPUTS[rid] = set(child["template"].get("Outputs", {}))
    problems += unresolvable(root, "root")
    for rid, child in nested.items():
        problems += unresolvable(child["template"], rid)
    resources = root["Resources"]
    stage = root.get("Parameters", {}).get("StageName", {}).get("Default", STAGE_DEFAULT)
    permissions = {k: v for k, v in resources.items() if v["Type"] == "AWS::Lambda::Permission"}
    patterns = {k: source_arn_pattern(v, stage) for k, v in permissions.items()}
    used = set()

    def allowed(function_id, api, arn):
        hits = [k for k, (papi, pat) in patterns.items()
                if permissions[k]["Properties"]["FunctionName"].get("Ref") == function_id
                and papi == api and fnmatch.fnmatchcase(arn, pat)]
        used.update(hits)
        return bool(hits)

    for api_id, res in resources.items():
        if res["Type"] != "AWS::ApiGateway::RestApi":
            continue
        body = res["Properties"].get("Body", {})
        ops = integrations(body)
        figures["restApis"][api_id] = {"paths": len(body.get("paths", {})), "methods": len(ops)}
        if not ops:
            problems.append(f"{api_id}: its definition has no method (API Gateway refuses to deploy it)")
        problems += variable_siblings(api_id, body)
        for path, method, fn, kind in ops:
            if kind == "http_proxy":
                continue
            if fn is None or fn not in resources:
                problems.append(f"{api_id}: {method} {path} is integrated with no function of the stack")
                continue
            for m in HTTP_METHODS if method == "ANY" else [method]:
                if not allowed(fn, api_id, invoke_arn(api_id, stage, m, path)):
                    problems.append(f"{api_id}: no permission lets it invoke {fn} for {m} {path}")
    for api_id, res in resources.items():
        if res["Type"] != "AWS::ApiGatewayV2::Api":
            continue
        routes = {k: v["Properties"] for k, v in resources.items()
                  if v["Type"] == "AWS::ApiGatewayV2::Route" and v["Properties"].get("ApiId", {}).get("Ref") == api_id}
        figures["webSocket"][api_id] = sorted(r["RouteKey"] for r in routes.values())
        for rid, route in routes.items():
            target = re.search(r"integrations/\$\{(\w+)\}", json.dumps(route.get("Target", "")))
            integration = resources.get(target.group(1)) if target else None
            if not integration or integration["Type"] != "AWS::ApiGatewayV2::Integration":
                problems.append(f"{api_id}: route {route['RouteKey']} ({rid}) targets no integration of the stack")
                continue
            if integration["Properties"].get("ApiId", {}).get("Ref") != api_id:
                problems.append(f"{api_id}: route {route['RouteKey']} targets another API's integration")
            if integration["Properties"].get("IntegrationType") == "MOCK":
                continue
            fn = re.search(r"\$\{(\w+)\.Arn\}", json.dumps(integration["Properties"].get("IntegrationUri", "")))
            if not fn or fn.group(1) not in resources:
                problems.append(f"{api_id}: route {route['RouteKey']} is integrated with no function of the stack")
            elif not allowed(fn.group(1), api_id, f"arn:aws:execute-api:{REGION}:{ACCOUNT}:<{api_id}>/{stage}/{route['RouteKey']}"):
                problems.append(f"{api_id}: no permission lets it invoke {fn.group(1)} for route {route['RouteKey']}")
    for k in sorted(set(permissions) - used):
        problems.append(f"{k}: its source ARN {patterns[k][1]} matches no method or route of its API")
    by_function = {}
    for k, p in permissions.items():
        by_function.setdefault(p["Properties"]["FunctionName"].get("Ref"), []).append(k)
    for fn, ids in by_function.items():
        sizes = []
        for stack in ("tri-api", "s" * LONGEST_STACK_NAME):
            statements = [policy_statement(stack, k, fn, patterns[k][1]) for k in ids]
            doc = json.dumps({"Version": "2012-10-17", "Id": "default", "Statement": statements}, separators=(",", ":"))
            largest = max(len(json.dumps(s, separators=(",", ":"))) + 1 for s in statements)
            sizes.append((len(doc), largest))
        figures["resourcePolicies"][fn] = {"statements": len(ids), "bytes": sizes[0][0], "bytesAtLongestStackName": sizes[1][0]}
        size, largest = sizes[1]
        if size + RESOURCE_POLICY_ROOM * largest > RESOURCE_POLICY_BYTES:
            problems.append(f"{fn}: its resource policy would be {size} bytes at a {LONGEST_STACK_NAME}-character stack "
                            f"name, without room for {RESOURCE_POLICY_ROOM} more routes under {RESOURCE_POLICY_BYTES}")
    for name, template in [("root", root)] + [(rid, c["template"]) for rid, c in nested.items()]:
        for rid, res in template.get("Resources", {}).items():
            for prop, limit in NAME_LIMITS.items():
                value = res.get("Properties", {}).get(prop)
                if value is None:
                    continue
                text, _ = sub_parts(value.get("Fn::Sub")) if isinstance(value, dict) and "Fn::Sub" in value else (value, {})
                if not isinstance(text, str):
                    continue
                longest = re.sub(r"\$\{[^}]+\}", "x" * LONGEST_STACK_NAME, text)
                if len(longest) > limit:
                    problems.append(f"{name}.{rid}: {prop} may be {len(longest)} characters (at most {limit})")
    return problems, figures


def stub_zip():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("index.js", "exports.handler = async () => ({ statusCode: 200 });\n")
    return buf.getvalue()


def teach_moto_rest_api_bodies():
    """CloudFormation imports an AWS::ApiGateway::RestApi's Body (PutRestApi); moto's model skips
    it, so its deployments would find no method. This makes moto's model import it too."""
    from moto.apigateway import models

    original = models.RestAPI.create_from_cloudformation_json.__func__

    def create(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
        api = original(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs)
        body = cloudformation_json["Properties"].get("Body")
        if body:
            backend = models.apigateway_backends[account_id][region_name]
            backend.put_rest_api(api.id, body, fail_on_warnings=False, mode="overwrite")
        return api

    models.RestAPI.create_from_cloudformation_json = classmethod(create)


def teach_moto_nested_outputs():
    """CloudFormation resolves Fn::GetAtt <nested stack>.Outputs.<name>; moto's Stack has no attribute."""
    from moto.cloudformation import models

    def get_cfn_attribute(self, attribute):
        if attribute.startswith("Outputs."):
            output = self.output_map.get(attribute.split(".", 1)[1])
            if output is not None:
                return output.value
        raise ValueError(f"the nested stack {self.name} has no attribute {attribute}")

    models.Stack.get_cfn_attribute = get_cfn_attribute


def moto_types():
    import importlib

    from moto.core.common_models import CloudFormationModel
    for service in ("apigateway", "awslambda", "cloudformation", "dynamodb", "iam", "logs", "s3", "sns", "sqs",
                    "cloudwatch", "secretsmanager", "cloudfront", "kms", "events"):
        importlib.import_module(f"moto.{service}.models")
    types, stack = set(), [CloudFormationModel]
    while stack:
        for sub in stack.pop().__subclasses__():
            stack.append(sub)
            try:
                types.add(sub.cloudformation_type())
            except Exception:  # noqa: BLE001 - abstract models
                pass
    return types


def without_conditionals(template, parameters):
    """The template as CloudFormation resolves it for these parameters: every Fn::If chosen, and an
    AWS::NoValue entry dropped from its list or map (moto keeps it as null, which its models refuse)."""
    params = {k: v.get("Default") for k, v in template.get("Parameters", {}).items()}
    params.update(parameters)
    conditions = template.get("Conditions", {})

    def value(v):
        return params.get(v["Ref"]) if isinstance(v, dict) and "Ref" in v else v

    def holds(c):
        if isinstance(c, str):
            return holds(conditions[c])
        if "Condition" in c:
            return holds(conditions[c["Condition"]])
        if "Fn::Equals" in c:
            a, b = c["Fn::Equals"]
            return str(value(a)) == str(value(b))
        if "Fn::Not" in c:
            return not holds(c["Fn::Not"][0])
        if "Fn::Or" in c:
            return any(holds(x) for x in c["Fn::Or"])
        if "Fn::And" in c:
            return all(holds(x) for x in c["Fn::And"])
        raise ValueError(f"unsupported condition {c}")

    no_value = object()

    def resolve(node):
        if isinstance(node, dict):
            if "Fn::If" in node:
                name, yes, no = node["Fn::If"]
                return resolve(yes if holds(name) else no)
            if node == {"Ref": "AWS::NoValue"}:
                return no_value
            out = {k: resolve(v) for k, v in node.items()}
            return {k: v for k, v in out.items() if v is not no_value}
        if isinstance(node, list):
            return [v for v in (resolve(x) for x in node) if v is not no_value]
        return node

    out = dict(template)
    out["Resources"] = {k: v for k, v in resolve(template["Resources"]).items()
                        if "Condition" not in v or holds(v["Condition"])}
    out["Outputs"] = {k: v for k, v in resolve(template.get("Outputs", {})).items()
                      if "Condition" not in v or holds(v["Condition"])}
    out.pop("Conditions", None)
    for res in out["Resources"].values():
        res.pop("Condition", None)
    for o in out["Outputs"].values():
        o.pop("Condition", None)
    return out


def stand_ins(template, emulated):
    """The template with the resources moto cannot emulate left out, and each Ref, GetAtt or Sub of
    one replaced by a string that names it (those resources stay covered by cfn-lint and checks())."""
    resources = template["Resources"]
    gone = {k for k, v in resources.items() if v["Type"] not in emulated}

    def resolve(node):
        if isinstance(node, dict):
            if isinstance(node.get("Ref"), str) and node["Ref"] in gone:
                return f"rehearsal-{node['Ref']}"
            att = node.get("Fn::GetAtt")
            if att is not None:
                parts = att if isinstance(att, list) else att.split(".")
                if parts[0] in gone:
                    return f"rehearsal-{'-'.join(parts)}"
            if "Fn::Sub" in node:
                text, variables = sub_parts(node["Fn::Sub"])
                if isinstance(text, str):
                    text = re.sub(r"\$\{(\w+)((?:\.\w+)*)\}",
                                  lambda m: f"rehearsal-{m.group(1)}{m.group(2).replace('.', '-')}"
                                  if m.group(1) in gone and m.group(1) not in variables else m.group(0), text)
                    return {"Fn::Sub": [text, resolve(variables)] if variables else text}
            return {k: resolve(v) for k, v in node.items()}
        if isinstance(node, list):
            return [resolve(x) for x in node]
        return node

    out = dict(template)
    out["Resources"] = {}
    for k, v in resources.items():
        if k in gone:
            continue
        res = resolve(v)
        depends = res.get("DependsOn")
        if depends is not None:
            kept = [d for d in ([depends] if isinstance(depends, str) else depends) if d not in gone]
            res["DependsOn"] = kept
            if not kept:
                res.pop("DependsOn")
        out["Resources"][k] = res
    out["Outputs"] = resolve(template.get("Outputs", {}))
    return out


def create_stack(cf, root, stack_name, parameters):
    cf.create_stack(
        StackName=stack_name,
        TemplateURL=f"https://s3.{REGION}.amazonaws.com/{sam.BUCKET}/root.template",
        Parameters=[{"ParameterKey": k, "ParameterValue": v} for k, v in parameters.items()
                    if k in root.get("Parameters", {})],
        Capabilities=["CAPABILITY_IAM", "CAPABILITY_AUTO_EXPAND"],
    )


def rehearse(root, nested, stack_name):
    import boto3
    from moto import mock_aws

    problems, report = [], {}
    emulated = moto_types()
    with warnings.catch_warnings(), mock_aws():
        warnings.simplefilter("ignore")
        teach_moto_rest_api_bodies()
        teach_moto_nested_outputs()
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=sam.BUCKET)
        code = stub_zip()
        for tpl in [root] + [c["template"] for c in nested.values()]:
            for res in tpl["Resources"].values():
                if res["Type"] == "AWS::Lambda::Function":
                    s3.put_object(Bucket=sam.BUCKET, Key=res["Properties"]["Code"]["S3Key"], Body=code)
        for rid, child in nested.items():
            key = root["Resources"][rid]["Properties"]["TemplateURL"].rsplit("/", 1)[1]
            body = stand_ins(without_conditionals(child["template"], {}), emulated)
            s3.put_object(Bucket=sam.BUCKET, Key=key, Body=json.dumps(body).encode())
        sns = boto3.client("sns", region_name=REGION)
        topic = sns.create_topic(Name="tri-api-alarms")["TopicArn"]
        parameters = {"AlarmTopicArn": topic, "InternalApiKey": secrets.token_hex(24)}
        root = without_conditionals(root, parameters)
        s3.put_object(Bucket=sam.BUCKET, Key="root.template", Body=json.dumps(stand_ins(root, emulated)).encode())
        cf = boto3.client("cloudformation", region_name=REGION)
        try:
            create_stack(cf, root, stack_name, parameters)
        except Exception as err:  # noqa: BLE001 - what moto's CloudFormation refused is the finding
            message = re.sub(r"^.*?b'(.*)'$", r"\1", str(err).replace("\n", " ")).replace("\\'", "'")
            return [f"the stack could not be created: {message}"], report
        stacks = {"root": cf.describe_stacks(StackName=stack_name)["Stacks"][0]}

        resources = {"root": cf.list_stack_resources(StackName=stack_name)["StackResourceSummaries"]}
        for summary in resources["root"]:
            if summary["ResourceType"] == "AWS::CloudFormation::Stack":
                child = summary["PhysicalResourceId"]
                stacks[summary["LogicalResourceId"]] = cf.describe_stacks(StackName=child)["Stacks"][0]
                resources[summary["LogicalResourceId"]] = cf.list_stack_resources(StackName=child)["StackResourceSummaries"]
        report["stacks"] = {}
        not_emulated = set()
        for name, summaries in resources.items():
            status = stacks[name]["StackStatus"]
            expected = {"root": root}.get(name) or nested[name]["template"]
            types = {r["Type"] for r in expected["Resources"].values()}
            not_emulated |= types - emulated
            created = {r["LogicalResourceId"]: r for r in summaries}
            complete = sum(1 for r in created.values() if r["ResourceStatus"] == "CREATE_COMPLETE")
            report["stacks"][name] = {"status": status, "resources": len(expected["Resources"]),
                                      "createComplete": complete}
            if status != "CREATE_COMPLETE":
                problems.append(f"stack {name}: {status} {stacks[name].get('StackStatusReason', '')}")
            for rid, res in expected["Resources"].items():
                if res["Type"] in emulated and created.get(rid, {}).get("ResourceStatus") != "CREATE_COMPLETE":
                    problems.append(f"stack {name}: {rid} ({res['Type']}) was not created")
        report["notEmulated"] = sorted(not_emulated)
        physical = {r["LogicalResourceId"]: r["PhysicalResourceId"] for r in resources["root"]}
        problems += rest_apis(root, physical, report)
        problems += web_socket(root, physical, report)
        problems += created_limits(root, physical, report)
    return problems, report


def rest_apis(root, physical, report):
    import boto3

    problems = []
    apigw = boto3.client("apigateway", region_name=REGION)
    stage = root.get("Parameters", {}).get("StageName", {}).get("Default", STAGE_DEFAULT)
    report["restApis"] = {}
    for api_id, res in root["Resources"].items():
        if res["Type"] != "AWS::ApiGateway::RestApi":
            continue
        rest_api_id = physical[api_id]
        expected = {(p, m): fn for p, m, fn, _ in integrations(res["Properties"].get("Body", {}))}
        found = {}
        for item in apigw.get_resources(restApiId=rest_api_id, embed=["methods"], limit=500)["items"]:
            for method in item.get("resourceMethods", {}):
                name = "ANY" if method.upper() in ("ANY", "X-AMAZON-APIGATEWAY-ANY-METHOD") else method.upper()
                found[(item["path"], name)] = apigw.get_integration(
                    restApiId=rest_api_id, resourceId=item["id"], httpMethod=method).get("uri", "")
        for key in sorted(set(expected) - set(found)):
            problems.append(f"{api_id}: {key[1]} {key[0]} is in the definition but was not imported")
        for key in sorted(set(found) - set(expected)):
            problems.append(f"{api_id}: {key[1]} {key[0]} was imported but is not in the definition")
        for key, fn in expected.items():
            if fn and key in found and fn not in found[key]:
                problems.append(f"{api_id}: {key[1]} {key[0]} is not integrated with {fn}")
        try:
            deployment = apigw.create_deployment(restApiId=rest_api_id, description="rehearsal")["id"]
            apigw.create_stage(restApiId=rest_api_id, stageName=stage, deploymentId=deployment)
            deployed = True
        except Exception as err:  # noqa: BLE001 - the API's own refusal is the finding
            problems.append(f"{api_id}: its deployment or stage was refused: {err}")
            deployed = False
        report["restApis"][api_id] = {
            "imported": sorted(f"{m} {p}" for p, m in found), "deployed": deployed, "stage": stage,
            "gatewayResponses": sorted(res["Properties"].get("Body", {}).get("x-amazon-apigateway-gateway-responses", {})),
        }
    return problems


def web_socket(root, physical, report):
    import boto3

    problems = []
    v2 = boto3.client("apigatewayv2", region_name=REGION)
    lam = boto3.client("lambda", region_name=REGION)
    resources = root["Resources"]
    report["webSocket"] = {}
    for api_id, res in resources.items():
        if res["Type"] != "AWS::ApiGatewayV2::Api":
            continue
        p = res["Properties"]
        api = v2.create_api(Name=api_id, ProtocolType=p["ProtocolType"], RouteSelectionExpression=p["RouteSelectionExpression"])
        made = {}
        for rid, r in resources.items():
            props = r["Properties"]
            if r["Type"] != "AWS::ApiGatewayV2::Integration" or props.get("ApiId", {}).get("Ref") != api_id:
                continue
            args = {"ApiId": api["ApiId"], "IntegrationType": props["IntegrationType"]}
            fn = re.search(r"\$\{(\w+)\.Arn\}", json.dumps(props.get("IntegrationUri", "")))
            if fn:
                arn = lam.get_function(FunctionName=physical[fn.group(1)])["Configuration"]["FunctionArn"]
                args["IntegrationUri"] = f"arn:aws:apigateway:{REGION}:lambda:path/2015-03-31/functions/{arn}/invocations"
            for key in ("RequestTemplates", "TemplateSelectionExpression", "PassthroughBehavior"):
                if key in props:
                    args[key] = props[key]
            made[rid] = v2.create_integration(**args)["IntegrationId"]
        keys = []
        for rid, r in resources.items():
            props = r["Properties"]
            if r["Type"] != "AWS::ApiGatewayV2::Route" or props.get("ApiId", {}).get("Ref") != api_id:
                continue
            target = re.search(r"integrations/\$\{(\w+)\}", json.dumps(props.get("Target", "")))
            if not target or target.group(1) not in made:
                problems.append(f"{api_id}: route {props['RouteKey']} has no integration")
                continue
            v2.create_route(ApiId=api["ApiId"], RouteKey=props["RouteKey"], Target=f"integrations/{made[target.group(1)]}")
            keys.append(props["RouteKey"])
        for needed in ("$connect", "$disconnect", "$default"):
            if needed not in keys:
                problems.append(f"{api_id}: no {needed} route")
        v2.create_stage(ApiId=api["ApiId"], StageName="rehearsal")  # moto 5.2.1 has no CreateDeployment
        routes = v2.get_routes(ApiId=api["ApiId"])["Items"]
        report["webSocket"][api_id] = {"routes": sorted(r["RouteKey"] for r in routes), "integrations": len(made)}
    return problems


def document(doc):
    """A policy document as IAM returns it: a map, or its text (JSON; moto may keep a Python repr)."""
    if isinstance(doc, dict):
        return doc
    try:
        return json.loads(doc)
    except ValueError:
        return ast.literal_eval(doc)


def created_limits(root, physical, report):
    import boto3

    problems = []
    lam = boto3.client("lambda", region_name=REGION)
    iam = boto3.client("iam", region_name=REGION)
    envs, roles = {}, {}
    for rid, res in root["Resources"].items():
        if res["Type"] == "AWS::Lambda::Function":
            variables = lam.get_function_configuration(FunctionName=physical[rid]).get("Environment", {}).get("Variables", {})
            size = sum(len(k.encode()) + len(str(v).encode()) for k, v in variables.items())
            envs[rid] = size
            if size > ENV_BYTES:
                problems.append(f"{rid}: its environment is {size} bytes (Lambda allows {ENV_BYTES})")
            if len(physical[rid]) > 64:
                problems.append(f"{rid}: its name {physical[rid]} is over 64 characters")
        if res["Type"] == "AWS::IAM::Role":
            name = physical[rid]
            total = 0
            for policy in iam.list_role_policies(RoleName=name)["PolicyNames"]:
                doc = iam.get_role_policy(RoleName=name, PolicyName=policy)["PolicyDocument"]
                total += len(re.sub(r"\s", "", json.dumps(document(doc))))
            roles[rid] = total
            if total > ROLE_POLICY_CHARS:
                problems.append(f"{rid}: its inline policies are {total} characters (IAM allows {ROLE_POLICY_CHARS})")
    largest = lambda d: max(d.items(), key=lambda kv: kv[1]) if d else (None, 0)  # noqa: E731
    report["limits"] = {"largestEnvironment": largest(envs), "largestRolePolicies": largest(roles),
                        "functions": len(envs), "roles": len(roles)}
    return problems


def main(argv):
    path = next((a for a in argv if not a.startswith("--")), "template.yaml")
    stack_name = argv[argv.index("--stack-name") + 1] if "--stack-name" in argv else "tri-api"
    # moto answers in this process: no endpoint override or profile may send a call anywhere else.
    for key in [k for k in os.environ if k.startswith("AWS_")]:
        del os.environ[key]
    os.environ.update({"AWS_DEFAULT_REGION": REGION, "AWS_ACCESS_KEY_ID": "rehearsal",
                       "AWS_SECRET_ACCESS_KEY": "rehearsal", "AWS_CONFIG_FILE": os.devnull,
                       "AWS_SHARED_CREDENTIALS_FILE": os.devnull})
    template, nested_paths, _ = sam.load(path)
    root = sam.transformed(template)
    nested = {}
    for rid, nested_path in nested_paths.items():
        child, _, _ = sam.load(nested_path)
        nested[rid] = {"path": nested_path, "template": sam.transformed(child)}
    problems, figures = checks(root, nested)
    moto_problems, report = rehearse(root, nested, stack_name)
    json.dump({"problems": problems + moto_problems, "checks": figures, "rehearsal": report}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1:])
