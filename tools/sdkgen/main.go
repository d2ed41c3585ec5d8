// Command sdkgen writes the Node.js, Python and Go SDKs of a Pulumi package from its schema:
//
//	sdkgen <schema.json> <outdir>
//
// It does what `pulumi package gen-sdk` would, without the language hosts that command asks to
// generate code (the module proxy here refuses the Python and Go hosts, and the Node one buildable
// here is too old): it binds the schema with Pulumi's own schema package and calls the code
// generators of github.com/pulumi/pulumi/pkg/v3 at the version tools/pulumi-cli pins, so the SDKs
// are what that Pulumi release would make.
//
// The SDKs go to <outdir>/nodejs, <outdir>/python and <outdir>/go. Each of those folders is
// replaced whole, so a file the schema no longer makes does not linger; nothing is written unless
// all three languages generated. The same schema always gives byte-identical files, so a test can
// regenerate and compare.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the name the generated files' "do not edit" header gives as their author.
const tool = "pulumi-alertpipe tools/sdkgen"

// noOtherPackages is the loader the generators get: our schema refers to no other package, so any
// attempt to load one is an error in the schema, said in words rather than a panic.
type noOtherPackages struct{}

func refused(name string) error {
	return fmt.Errorf("the schema refers to package %q; sdkgen generates self-contained packages only", name)
}

func (noOtherPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, refused(pkg)
}

func (noOtherPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, refused(d.Name)
}

func (noOtherPackages) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, refused(pkg)
}

func (noOtherPackages) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, refused(d.Name)
}

// bind reads and validates the schema. Each language binds its own copy: the generators record
// their language options in the package they are given.
func bind(raw []byte) (*schema.Package, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("the schema is not valid JSON: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, schema.NewNullLoader(), schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, d := range diags {
		// Summary and detail only: the schema binder gives no source positions, so hcl's own
		// rendering of a diagnostic starts with "<nil>: ".
		text := d.Summary
		if d.Detail != "" && d.Detail != d.Summary {
			text += ": " + d.Detail
		}
		if d.Severity == hcl.DiagError {
			problems = append(problems, "  "+text)
		} else {
			fmt.Fprintf(os.Stderr, "sdkgen: warning: %s\n", text)
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("the schema does not bind:\n%s", strings.Join(problems, "\n"))
	}
	return pkg, nil
}

var languages = []struct {
	name     string
	generate func(*schema.Package) (map[string][]byte, error)
}{
	{"nodejs", func(pkg *schema.Package) (map[string][]byte, error) {
		return nodejs.GeneratePackage(tool, pkg, nil, nil, false, noOtherPackages{})
	}},
	{"python", func(pkg *schema.Package) (map[string][]byte, error) {
		return python.GeneratePackage(tool, pkg, nil, noOtherPackages{})
	}},
	{"go", func(pkg *schema.Package) (map[string][]byte, error) {
		return gogen.GeneratePackage(tool, pkg, nil)
	}},
}

// write replaces dir with exactly the given files, through a scratch folder renamed into place.
func write(dir string, files map[string][]byte) error {
	scratch := dir + ".sdkgen-tmp"
	if err := os.RemoveAll(scratch); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(scratch, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	return os.Rename(scratch, dir)
}

func run(schemaPath, outDir string) error {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	generated := make([]map[string][]byte, len(languages))
	for i, lang := range languages {
		pkg, err := bind(raw)
		if err != nil {
			return err
		}
		files, err := lang.generate(pkg)
		if err != nil {
			return fmt.Errorf("generating the %s SDK: %w", lang.name, err)
		}
		if len(files) == 0 {
			return fmt.Errorf("generating the %s SDK: no files", lang.name)
		}
		generated[i] = files
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	for i, lang := range languages {
		if err := write(filepath.Join(outDir, lang.name), generated[i]); err != nil {
			return fmt.Errorf("writing the %s SDK: %w", lang.name, err)
		}
	}
	return nil
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: sdkgen <schema.json> <outdir>\n"+
			"writes <outdir>/nodejs, <outdir>/python and <outdir>/go, replacing those folders")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}
