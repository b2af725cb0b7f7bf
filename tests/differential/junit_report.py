"""Reads a JUnit XML file with junitparser, as a CI dashboard's importer would, and prints what it
found as one JSON document: the root's counts (as written and as junitparser counts the cases),
each suite's attributes, and each case's classname, name, result and message.

Usage: python junit_report.py FILE
"""
import json
import sys

from junitparser import JUnitXml, Error, Failure, Skipped


def result_of(case):
    for result in case.result:
        if isinstance(result, Failure):
            return "failure", result.message, result.text
        if isinstance(result, Error):
            return "error", result.message, result.text
        if isinstance(result, Skipped):
            return "skipped", result.message, result.text
    return "passed", None, None


def main(path):
    xml = JUnitXml.fromfile(path)
    root = xml._elem
    cases = []
    suites = []
    for suite in xml:
        suites.append({
            "name": suite.name,
            "tests": suite.tests,
            "failures": suite.failures,
            "errors": suite.errors,
            "skipped": suite.skipped,
            "time": suite._elem.get("time"),
            "timestamp": suite.timestamp,
            "hostname": suite.hostname,
        })
        for case in suite:
            kind, message, text = result_of(case)
            cases.append({
                "suite": suite.name,
                "classname": case.classname,
                "name": case.name,
                "result": kind,
                "message": message,
                "text": text,
            })
    print(json.dumps({
        "root": {name: root.get(name) for name in ("tests", "failures", "errors", "skipped", "time")},
        "suites": suites,
        "cases": cases,
    }))


if __name__ == "__main__":
    main(sys.argv[1])
