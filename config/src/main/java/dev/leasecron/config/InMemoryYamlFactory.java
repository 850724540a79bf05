package dev.leasecron.config;

import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactoryBuilder;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import org.yaml.snakeyaml.parser.ParserImpl;

/**
 * Jackson's YAML factory with one change: its parsers read through an {@link InMemoryStreamReader},
 * so parsing stays linear in the size of the file however long one scalar is. Everything else
 * (features, loader options, token locations) is Jackson's.
 */
final class InMemoryYamlFactory extends YAMLFactory {
    private static final long serialVersionUID = 1L;

    InMemoryYamlFactory(YAMLFactoryBuilder builder) {
        super(builder);
    }

    @Override
    protected YAMLParser _createParser(Reader reader, IOContext context) throws IOException {
        StringWriter text = new StringWriter();
        reader.transferTo(text);
        ParserImpl events = new ParserImpl(new InMemoryStreamReader(text.toString()), _loaderOptions);
        // The constructor taking SnakeYAML's parser is protected: an anonymous subclass reaches it.
        return new YAMLParser(context, _parserFeatures, _yamlParserFeatures, _objectCodec, reader, events) {};
    }
}
