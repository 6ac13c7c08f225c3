package dev.phoneagent.helper;

import java.util.TreeMap;
import javax.annotation.Priority;
import javax.inject.Inject;
import org.robolectric.pluginapi.Sdk;
import org.robolectric.plugins.DefaultSdkProvider;
import org.robolectric.internal.dependency.DependencyResolver;

/**
 * Robolectric's SDKs up to 34, the helper's targetSdk: Robolectric loads system resources from the
 * newest SDK it knows, and that one (35) is not fetched — the tests run at 26, 30 and 34.
 */
@Priority(1)
public class HelperSdks extends DefaultSdkProvider {
  @Inject
  public HelperSdks(DependencyResolver resolver) {
    super(resolver);
  }

  @Override
  protected void populateSdks(TreeMap<Integer, Sdk> known) {
    super.populateSdks(known);
    known.tailMap(35).clear();
  }
}
